// Core's English text in the user's language. core/ (plain C++, no Qt) writes its messages in English with
// their numbers, paths and formulas inside: validation issues, plan-reader errors, prediction warnings,
// reality-check text, and every explanation's note and source. The GUI passes each through here before
// showing it.
//
// How: a catalogue (CoreText.cpp) holds one entry per English template of core, "%1".."%n" standing for the
// parts that vary ("must be between %1 and %2, found %3"). Each template becomes a regular expression; a
// message that matches one is rebuilt from the template's tr() translation with the captured parts put back
// unchanged (numbers, field paths, formulas and units stay as core wrote them; a captured phrase or a "; "
// list of items that is itself in the catalogue is translated in turn). A note made of several sentences is
// matched sentence by sentence, a source of several references reference by reference. Text no entry matches
// stays English (never empty) and is remembered, so tests and developers can list what the catalogue misses
// (unmatched()).
#pragma once

#include "cost/Explain.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <string>

namespace planscope {

class CoreText {
    Q_DECLARE_TR_FUNCTIONS(CoreText)
public:
    struct Translation {
        QString text; // in the UI language; the English original where nothing matched
        bool matched = false; // every sentence (or reference) was found in the catalogue
    };

    // Any core message: an Issue's message, a prediction warning ("training.tokens: not set; ..." keeps its
    // path), a reality-check message, an explanation's note or source.
    static Translation translate(const QString& english);
    static QString text(const QString& english) { return translate(english).text; }
    static QString text(const std::string& english) { return text(QString::fromStdString(english)); }
    // A template of core (util/Text.h): its translation with the arguments put back, a nested template
    // translated in turn. Text that is not a template goes through the catalogue as above.
    static QString text(const Text& text);
    // An issue's message: its template where core built one, its English through the catalogue where not.
    static QString text(const Issue& issue);
    // An issue as one line, "path: message" (core's issueLine(), util/Result.h) in the UI language.
    static QString line(const Issue& issue);

    // One explanation and its children as text, as core's formatExplanation() prints it (the field, the value
    // with its unit, formula, inputs, the formula with values put in, source, note), with labels, notes and
    // sources in the UI language; formulas, fields and numbers as core wrote them.
    static QString explanation(const Explainer& explainer, const std::string& field, int maxDepth = 3);

    // Every fragment that fell back to English since the start (or the last clearUnmatched()), sorted.
    static QStringList unmatched();
    static void clearUnmatched();
    // The English templates of the catalogue, in catalogue order.
    static QStringList catalogue();
};

} // namespace planscope
