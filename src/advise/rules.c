/* rules.c - the design-advice rules: id, title and the text of `nnperf advise --explain RULE` (rationale, what
 * nnperf checks, the what-if that predicts the gain, and the source). The rules come from Horizon's "Efficient
 * Model Design Advice" for the S100 BPU (docs/sources.md [S100-ADVICE]); section names below are that document's.
 * Each row also names the function that checks it (advise.c). */
#include <stddef.h>
#include <string.h>

#include "advise.h"

const struct adv_rule adv_rules[] = {
    {"fallback", "operator not supported by the accelerator (CPU fallback)",
     "fallback: operator not supported by the accelerator (CPU fallback)\n"
     "Rationale: the BPU runs its operators much faster than the CPU, and every switch between BPU and CPU "
     "adds a\n"
     "quantize / dequantize node that traverses the whole tensor, in time proportional to its size.\n"
     "Check: layers the platform runs on its fallback unit (compute.unsupported, fallback: in the platform "
     "file),\n"
     "one finding per operator; the evidence gives the CPU time and the boundary transfer and "
     "(de)quantization.\n"
     "What-if: the operator treated as supported by the accelerator (no fallback, fusion allowed); gain =\n"
     "latency - latency with it on the accelerator.\n"
     "Fix: replace it by supported operators (or spell it with them), or move it into pre/post-processing: "
     "filter\n"
     "first, then dequantize only the data that is left.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"General Recommendations / Use BPU Ops to Build a Model\".\n",
     adv_check_fallback},
    {"fusion-blocked", "fusable pattern left unfused by the graph's structure",
     "fusion-blocked: fusable pattern left unfused by the graph's structure\n"
     "Rationale: the compiler fuses combinations such as Conv -> Add -> ReLU into one module; fusion keeps "
     "the\n"
     "intermediate results in high precision and on chip. \"Typically, all fusible parts should be fused.\"\n"
     "Check: a Conv [-> BatchNormalization] -> activation -> Add chain whose inner outputs are read once, "
     "where the\n"
     "platform has the pattern with the activation after the Add (e.g. Conv -> BatchNormalization -> Add -> "
     "Relu),\n"
     "and the Add is a layer of its own.\n"
     "What-if: the chain forced into one fused layer, as if the activation were moved after the Add.\n"
     "Fix: apply the activation after the residual Add (as ResNet does), or drop it if the block allows.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Fusion of Fusible Operators\" (fcos_efficientnetb0: 852 FPS "
     "unfused, 1207 FPS "
     "fused).\n",
     adv_check_fusion},
    {"align-channels", "channel count padded by the hardware's alignment",
     "align-channels: channel count padded by the hardware's alignment\n"
     "Rationale: the BPU computes in aligned units; a conv-like tensor is padded to H 8, W 16, C 32, and the "
     "padding\n"
     "is computed like real data: \"an invalid waste of computing power\".\n"
     "Check: conv / Gemm / MatMul layers whose output channels are padded by the platform's alignment rule, "
     "when\n"
     "the padding is at least 20% of the layer's MACs. The evidence names the padded size and the share.\n"
     "What-if: the layer given the nearest aligned channel count (down when it is not zero and at least as "
     "near).\n"
     "Its MACs, weights and output bytes scale by new/old; channel-preserving layers that follow (depthwise "
     "conv,\n"
     "activation, norm, pool) scale alike, and the dense conv / Gemm / MatMul that read it scale their MACs "
     "and\n"
     "weights. An approximation of editing the graph: shapes are not re-inferred (docs/advise.md).\n"
     "Fix: use channel counts that are multiples of the alignment (32 on a BPU); put big sizes on the axis "
     "with\n"
     "the larger alignment unit.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Follow the Hardware Alignment Rules\".\n",
     adv_check_align},
    {"padded-attention", "attention scores padded by the hardware's alignment",
     "padded-attention: attention scores padded by the hardware's alignment\n"
     "Rationale: the alignment that pads a conv's channels also pads an attention's scores (heads x tokens "
     "x\n"
     "tokens): a Swin window of 7x7 = 49 tokens on a unit aligned to 16 or 64 computes, stores and reloads\n"
     "padding that can be larger than the scores themselves.\n"
     "Check: the attention scores on the accelerator (a fused attention, a Softmax, or a MatMul of two "
     "activations)\n"
     "whose output the alignment pads to 1.5x its elements or more. The evidence gives the real and padded "
     "shapes.\n"
     "What-if: that layer's output not padded (aligned shape = real shape, its work and bytes unscaled): the "
     "upper\n"
     "bound of a token count and head count that the alignment does not pad.\n"
     "Fix: choose the window (sequence length) and the number of heads as multiples of the alignment unit, "
     "or fold\n"
     "heads and windows into one axis before the score MatMul.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Follow the Hardware Alignment Rules\".\n",
     adv_check_attention},
    {"grouped-conv", "memory-bound dense conv with many channels",
     "grouped-conv: memory-bound dense conv with many channels\n"
     "Rationale: as channels grow, dense convolutions need more weights and bandwidth than the compute can "
     "use;\n"
     "group convolution relieves the bandwidth pressure.\n"
     "Check: dense (group 1) convs with a kernel larger than 1x1 and at least 256 input channels that the\n"
     "prediction finds memory-bound.\n"
     "What-if: the conv made grouped with groups of 64 channels (MACs and weights / groups; operator class\n"
     "conv_grouped, which takes the platform's grouped-conv efficiency where it has one).\n"
     "Fix: use a grouped conv (ResNeXt / RegNet style blocks) in the wide stages; check the accuracy.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Improve the Computation/Visit Ratio of the Model\", items 1 "
     "and 3.\n",
     adv_check_grouped},
    {"spilled-shortcut", "long shortcut spilled to DDR",
     "spilled-shortcut: long shortcut spilled to DDR\n"
     "Rationale: a shortcut that is too long keeps its feature map in SRAM for long, or even has it dumped "
     "to DDR.\n"
     "Check: tensors the memory plan spills (stored to DDR and read back) because they do not fit beside\n"
     "everything alive until their last reader.\n"
     "What-if: the tensor kept in SRAM beside the plan (never spilled, its bytes not counted against the "
     "capacity):\n"
     "the upper bound of a shortcut short enough to stay on chip.\n"
     "Fix: shorten the shortcut, or make the feature map it carries smaller (fewer channels, a downsample "
     "before\n"
     "the block).\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Improve the Computation/Visit Ratio of the Model\", items 2 "
     "and 4.\n",
     adv_check_spill},
    {"large-weights", "layer dominated by its weight loads",
     "large-weights: layer dominated by its weight loads\n"
     "Rationale: too large kernels and too high channel dimensions increase the weight parameters, and their "
     "data\n"
     "handling dominates the layer.\n"
     "Check: memory-bound layers on the accelerator with at least 512 KiB of weights making at least half of "
     "their\n"
     "DDR bytes.\n"
     "What-if: the layer's weight bytes halved (pruning, fewer channels or 4-bit weights).\n"
     "Fix: fewer channels, a smaller kernel, group convolution, structured pruning or 4-bit weights where "
     "the\n"
     "platform supports them; or batching (batch-small-input), which loads the weights once for several "
     "frames.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Improve the Computation/Visit Ratio of the Model\", item "
     "3.\n",
     adv_check_weights},
    {"data-transform", "Transpose / layout transforms on the accelerator",
     "data-transform: Transpose / layout transforms on the accelerator\n"
     "Rationale: the BPU is a tensor processor with a multidimensional data layout; Reshape and Transpose "
     "express a\n"
     "linear CPU/GPU layout and cost time on it, the more the more dimensions change.\n"
     "Check: Transpose, DepthToSpace and SpaceToDepth layers on the accelerator, one finding per operator. "
     "(Reshape\n"
     "is modelled as a free view, so it costs nothing here.)\n"
     "What-if: those layers folded away (no work, no bytes, as a view).\n"
     "Fix: keep one layout between blocks, fold the transform into the neighbouring layers, change as few\n"
     "dimensions as possible.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Improve the Computation/Visit Ratio of the Model\", item "
     "6.\n",
     adv_check_transform},
    {"batch-small-input", "small input run one frame at a time",
     "batch-small-input: small input run one frame at a time\n"
     "Rationale: the accelerator's compute is large; small models (resolution <= 256) run better in batch "
     "mode,\n"
     "which loads the weights once for several frames.\n"
     "Check: a rank-4 graph input with H and W <= 256 predicted at 1 frame per run; reported when the time "
     "per\n"
     "frame falls by at least 10%.\n"
     "What-if: 4 frames per run (weights loaded once per run). The gain is the latency per frame saved; the\n"
     "finding also gives the FPS gain and the latency per run it costs.\n"
     "Fix: run the model with batch 4 when the application can wait for the frames.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Improve the Computation/Visit Ratio of the Model\", item "
     "5.\n",
     adv_check_batch},
    {"dtype", "the platform is much faster in another dtype",
     "dtype: the platform is much faster in another dtype\n"
     "Rationale: accelerators reach their peak in one number format; a model in a slower format leaves most "
     "of the\n"
     "compute unused (int8 vs fp16 on GPUs and NPUs).\n"
     "Check: dtypes with a peak at least 2x the prediction's dtype on this platform; reported when the model "
     "is\n"
     "predicted at least 10% faster in it.\n"
     "What-if: the prediction in that dtype (its peak and bytes per element).\n"
     "Fix: quantize (post-training or quantization-aware training) or convert the model; check the "
     "accuracy.\n"
     "Source: [S100-ADVICE] (docs/sources.md), \"Overview\" (quantized deployment on the BPU); the "
     "platform's peaks (presets/).\n",
     adv_check_dtype},
};
const int adv_n_rules = (int)(sizeof adv_rules / sizeof adv_rules[0]);

const char *nnperf_advice_explain(const char *rule)
{
    if (!rule) return NULL;
    for (int i = 0; i < adv_n_rules; i++)
        if (!strcmp(adv_rules[i].id, rule)) return adv_rules[i].text;
    return NULL;
}
