#include "charts/OperatorText.h"

#include "Palette.h"
#include "util/Units.h"

namespace planscope {

QColor OperatorText::boundColor(OpBound bound)
{
    switch (bound) {
    case OpBound::Compute:
        return palette::blue();
    case OpBound::Memory:
        return palette::orange();
    case OpBound::Communication:
        return palette::bluishGreen();
    case OpBound::Latency:
        return palette::reddishPurple();
    }
    return palette::grey();
}

QString OperatorText::boundName(OpBound bound)
{
    switch (bound) {
    case OpBound::Compute:
        return tr("compute");
    case OpBound::Memory:
        return tr("memory");
    case OpBound::Communication:
        return tr("communication");
    case OpBound::Latency:
        return tr("latency");
    }
    return QString::fromLatin1(toString(bound).data(), qsizetype(toString(bound).size()));
}

QString OperatorText::passName(KernelPass pass)
{
    switch (pass) {
    case KernelPass::Forward:
        return tr("forward");
    case KernelPass::Recompute:
        return tr("recompute");
    case KernelPass::BackwardInput:
        return tr("backward (input)");
    case KernelPass::BackwardWeight:
        return tr("backward (weight)");
    }
    return {};
}

OperatorText::Phase OperatorText::phase(KernelPass pass)
{
    switch (pass) {
    case KernelPass::Forward:
        return Phase::Forward;
    case KernelPass::Recompute:
        return Phase::Recompute;
    case KernelPass::BackwardInput:
    case KernelPass::BackwardWeight:
        return Phase::Backward;
    }
    return Phase::Forward;
}

QString OperatorText::phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return tr("forward");
    case Phase::Recompute:
        return tr("recompute");
    case Phase::Backward:
        return tr("backward");
    }
    return {};
}

QString OperatorText::shape(const KernelOp& op)
{
    if (op.kind == KernelKind::Gemm || op.kind == KernelKind::Attention) {
        if (op.m <= 0 || op.n <= 0 || op.k <= 0) return {};
        const QString mnk = QStringLiteral("%1×%2×%3").arg(op.m).arg(op.n).arg(op.k);
        return op.batch > 1 ? QStringLiteral("%1× %2").arg(op.batch).arg(mnk) : mnk;
    }
    if (op.kind == KernelKind::Collective) {
        const std::string_view c = toString(op.collective), g = toString(op.group);
        QString s = QStringLiteral("%1 %2%3")
                        .arg(QString::fromLatin1(c.data(), qsizetype(c.size())),
                            QString::fromLatin1(g.data(), qsizetype(g.size())))
                        .arg(op.groupSize);
        if (op.repeat > 1) s += QStringLiteral(" ×%1").arg(op.repeat);
        return s;
    }
    return {};
}

QString OperatorText::gflop(double flops)
{
    return QString::number(flops / 1e9, 'f', 1);
}

QString OperatorText::megabytes(double bytes)
{
    return QString::number(units::toGB(bytes) * 1e3, 'f', 1);
}

QString OperatorText::milliseconds(double s)
{
    return QString::number(s * 1e3, 'f', 3);
}

QString OperatorText::efficiency(double share)
{
    return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', 1);
}

QString OperatorText::hiddenBehind(const std::vector<KernelOp>& ops, const KernelOp& op)
{
    if (op.hiddenBy < 0 || std::size_t(op.hiddenBy) >= ops.size()) return {};
    return QString::fromUtf8(ops[std::size_t(op.hiddenBy)].name);
}

QString OperatorText::toolTip(const std::vector<KernelOp>& ops, std::size_t index)
{
    if (index >= ops.size()) return {};
    const KernelOp& op = ops[index];
    QString kind;
    switch (op.kind) {
    case KernelKind::Gemm:
        kind = tr("GEMM");
        break;
    case KernelKind::Attention:
        kind = tr("attention");
        break;
    case KernelKind::Memory:
        kind = tr("element-wise, memory-bound kernel");
        break;
    case KernelKind::Collective:
        kind = tr("collective");
        break;
    }
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> &nbsp;(%2, %3)")
                 .arg(QString::fromUtf8(op.name).toHtmlEscaped(), passName(op.pass), kind);
    const QString sh = shape(op);
    if (!sh.isEmpty())
        lines << (op.kind == KernelKind::Collective ? tr("Collective: %1").arg(sh)
                                                    : tr("Shape (M×N×K): %1").arg(sh));
    lines << tr("%1 GFLOP, %2 MB").arg(gflop(op.flops), megabytes(op.bytes));
    lines << tr("Bound by: %1").arg(boundName(op.bound));
    if (op.kind != KernelKind::Collective) {
        lines << tr("Efficiency: %1 of the dense peak").arg(efficiency(op.efficiency));
        lines << tr("Compute %1 ms, memory %2 ms")
                     .arg(milliseconds(op.computeSeconds), milliseconds(op.memorySeconds));
    }
    if (op.splits > 1)
        lines << tr("Run as %1 GEMMs of %2 rows (Transformer Engine's TP overlap)").arg(op.splits).arg(op.m / op.splits);
    if (op.reservedSms > 0)
        lines << tr("On the SMs %1 SMs of communication leave it (Transformer Engine's TP overlap)").arg(op.reservedSms);
    if (op.contentionSeconds > 0)
        lines << tr("Of which %1 ms lost to a collective beside it (its SMs)").arg(milliseconds(op.contentionSeconds));
    lines << tr("Time: %1 ms").arg(milliseconds(op.seconds));
    lines << tr("Exposed (on the critical path): %1 ms").arg(milliseconds(op.exposedSeconds));
    const QString behind = hiddenBehind(ops, op);
    if (!behind.isEmpty()) lines << tr("Overlaps with %1").arg(behind.toHtmlEscaped());
    return lines.join(QStringLiteral("<br>"));
}

} // namespace planscope
