// One layer's operators (core/cost/Operators.h: Prediction::layerOps, outputOps) in words and colours, shared
// by the layer anatomy page and the metrics page's operator table so both name, colour and round an op alike.
// Only text and colours: every number comes from the op as core costed it.
#pragma once

#include "cost/Operators.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <vector>

namespace planscope {

class OperatorText {
    Q_DECLARE_TR_FUNCTIONS(OperatorText)
public:
    // What bounds an op, as a colour of the one palette: compute blue, memory orange, communication bluish
    // green (the collectives' colour on the measured-run page), latency reddish purple.
    static QColor boundColor(OpBound bound);
    static QString boundName(OpBound bound); // "compute", "memory", ...
    static QString passName(
        KernelPass pass); // "forward", "recompute", "backward (input)", "backward (weight)"
    // The pass group the anatomy marks: forward, recompute, backward (input and weight gradients together).
    enum class Phase { Forward, Recompute, Backward };
    static Phase phase(KernelPass pass);
    static QString phaseName(Phase phase);
    // GEMM "M×N×K" (with "B× " for batched products), a collective "AllGather tp8" (" ×3" repeated), else
    // empty.
    static QString shape(const KernelOp& op);
    // Numbers as the table and the tooltips print them.
    static QString gflop(double flops); // "618.5"
    static QString megabytes(double bytes); // "381.7" (MB, 10^6 bytes)
    static QString milliseconds(double s); // "0.832"
    static QString efficiency(double share); // "75.1 %"
    // The name of the op a collective hides behind, empty when it is exposed.
    static QString hiddenBehind(const std::vector<KernelOp>& ops, const KernelOp& op);
    // Everything about one op, as rich text for a tooltip: pass, kind, shape, GFLOP, MB, bound, efficiency,
    // compute / memory / total seconds, exposed seconds, what hides it.
    static QString toolTip(const std::vector<KernelOp>& ops, std::size_t index);
};

} // namespace planscope
