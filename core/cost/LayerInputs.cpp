#include "LayerInputs.h"

#include "spec/ScheduleTraits.h"

// Every member of the structs built below is given: a member added to one of them and not filled here fails the
// build (the key of EvaluateCache must hold all the layer reads).
#pragma GCC diagnostic error "-Wmissing-field-initializers"

namespace planscope {

bool splitsBackward(ScheduleKind kind)
{
    return traits(kind).splitBackward;
}

LayerInputs layerInputs(const Plan& plan, const RankLayout& layout)
{
    const ParallelSpec& P = plan.parallel;
    const TrainingSpec& T = plan.training;
    return LayerInputs {
        plan.model,
        plan.cluster,
        LayerParallel { P.tp, P.cp, P.ep, P.etp, P.sp },
        LayerTraining { T.microBatch, T.precision, T.recompute, T.recomputeModules, T.flashAttention, T.tpCommOverlap,
            splitsBackward(T.schedule), T.fp8Recipe, T.fp8ParamGather, T.host, T.overlapMoeComm,
            plan.overheads.ncclChannels },
        layout,
    };
}

LayerInputs denseLayerInputs(LayerInputs inputs)
{
    inputs.model.moe = MoeSpec {};
    inputs.parallel.ep = 1;
    inputs.parallel.etp = 0;
    return inputs;
}

} // namespace planscope
