// Core's text in the user's language. core/ (plain C++, no Qt) writes every sentence the GUI shows as a template
// with its arguments (util/Text.h): validation issues, plan-reader errors, prediction warnings, reality-check
// text, the planner's reasons, and every explanation's note and source. The GUI translates the template through
// Qt's translation system (lupdate extracts the templates from core; docs/ARCHITECTURE.md section 6), puts the
// same arguments back (numbers, field paths, formulas and units stay as core wrote them) and translates a nested
// template in turn. Text core gives verbatim (a name, a number, a path) is shown as it is.
#pragma once

#include "cost/Explain.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QString>
#include <string>

namespace planscope {

class CoreText {
    Q_DECLARE_TR_FUNCTIONS(CoreText)
public:
    // A text of core: its template's translation with the arguments put back; a join (an explanation's note of
    // several sentences, a source of several references, a list of items) part by part with the language's
    // separator. Verbatim text as it is.
    static QString text(const Text& text);
    // An issue's message: its template where core built one, its English where not.
    static QString text(const Issue& issue);
    // An issue as one line, "path: message" (core's issueLine(), util/Result.h) in the UI language.
    static QString line(const Issue& issue);

    // One explanation and its children as text, as core's formatExplanation() prints it (the field, the value
    // with its unit, formula, inputs, the formula with values put in, source, note), with labels, notes and
    // sources in the UI language; formulas, fields and numbers as core wrote them.
    static QString explanation(const Explainer& explainer, const std::string& field, int maxDepth = 3);
};

} // namespace planscope
