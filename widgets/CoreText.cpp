#include "CoreText.h"

#include "util/Units.h"

#include <vector>

namespace planscope {

namespace {

// A template's translation with its arguments (translated where they are templates) put in, as UTF-8, by core's
// substitution rule (util/Text.h fillTemplate).
std::string translated(const Text& text)
{
    if (text.isJoin()) {
        // The language's way of putting two sentences, or two items of a list, side by side.
        const std::string pattern = text.joint() == Text::Joint::List
            ? CoreText::tr("%1; %2", "two items of a list").toStdString()
            : CoreText::tr("%1 %2", "two sentences side by side").toStdString();
        std::string out;
        for (const Text& part : text.args())
            out = out.empty() ? translated(part) : fillTemplate(pattern, { out, translated(part) });
        return out;
    }
    if (!text.isTemplate()) return text.verbatimText();
    const std::string pattern = QCoreApplication::translate(text.context(), text.pattern()).toStdString();
    std::vector<std::string> args;
    args.reserve(text.args().size());
    for (const Text& a : text.args())
        args.push_back(translated(a));
    return fillTemplate(pattern, args);
}

QString valueText(double v, const std::string& unit)
{
    const QString n = QString::fromStdString(units::formatNumber(v));
    if (unit == "bytes")
        return CoreText::tr("%1 bytes (%2)").arg(n, QString::fromStdString(units::formatBytes(v)));
    if (unit == "seconds")
        return CoreText::tr("%1 s (%2)").arg(n, QString::fromStdString(units::formatSeconds(v)));
    if (unit == "FLOP")
        return CoreText::tr("%1 FLOP (%2)").arg(n, QString::fromStdString(units::formatFlops(v)));
    if (unit == "parameters")
        return CoreText::tr("%1 (%2)", "a count of parameters")
            .arg(n, QString::fromStdString(units::formatCount(v)));
    if (unit == "microbatches") return CoreText::tr("%1 microbatches").arg(n);
    if (unit == "days") return CoreText::tr("%1 days").arg(n);
    if (unit == "1" || unit.empty()) return n;
    return QStringLiteral("%1 %2").arg(n, QString::fromStdString(unit));
}

void formatExplanation(const Explainer& ex, const std::string& field, int depth, int maxDepth, QString& out)
{
    const QString indent(depth * 4, QLatin1Char(' '));
    const Explanation* e = ex.find(field);
    if (!e) {
        out += indent + CoreText::tr("%1: no explanation recorded").arg(QString::fromStdString(field))
            + QLatin1Char('\n');
        return;
    }
    out += indent + QString::fromStdString(e->field) + QStringLiteral(" = ") + valueText(e->value, e->unit)
        + QLatin1Char('\n');
    if (!e->formula.empty()) {
        out += indent + CoreText::tr("  formula: %1").arg(QString::fromStdString(e->formula))
            + QLatin1Char('\n');
        if (!e->inputs.empty()) {
            QStringList inputs;
            for (const auto& [name, value] : e->inputs)
                inputs << QString::fromStdString(name) + QStringLiteral(" = ")
                        + QString::fromStdString(units::formatNumber(value));
            out += indent + CoreText::tr("  where:  %1").arg(inputs.join(QStringLiteral(", ")))
                + QLatin1Char('\n');
            out += indent
                + CoreText::tr("  so:     %1 = %2")
                      .arg(QString::fromStdString(substitute(*e)),
                          QString::fromStdString(units::formatNumber(e->value)))
                + QLatin1Char('\n');
        }
    }
    if (!e->source.empty())
        out += indent + CoreText::tr("  source: %1").arg(CoreText::text(e->source)) + QLatin1Char('\n');
    if (!e->note.empty())
        out += indent + CoreText::tr("  note:   %1").arg(CoreText::text(e->note)) + QLatin1Char('\n');
    if (depth < maxDepth)
        for (const std::string& c : e->children)
            formatExplanation(ex, c, depth + 1, maxDepth, out);
}

} // namespace

QString CoreText::text(const Text& text)
{
    return QString::fromStdString(translated(text));
}

QString CoreText::text(const Issue& issue)
{
    return text(issueText(issue));
}

QString CoreText::line(const Issue& issue)
{
    if (issue.path.empty()) return text(issue);
    // The template core's calibration notes use for a path and its message (analysis/Analysis.cpp).
    return QString::fromStdString(fillTemplate(QCoreApplication::translate("CoreText", "%1: %2").toStdString(),
        { issue.path, text(issue).toStdString() }));
}

QString CoreText::explanation(const Explainer& explainer, const std::string& field, int maxDepth)
{
    QString out;
    formatExplanation(explainer, field, 0, maxDepth, out);
    return out;
}

} // namespace planscope
