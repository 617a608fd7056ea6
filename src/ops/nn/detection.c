/* detection.c - NonMaxSuppression: its output's row count depends on the box and score values, so it is a
 * named data-dependent dim. */
#include "../ops.h"

/* ONNX NonMaxSuppression-10/11: boxes [num_batches, spatial_dimension, 4], scores [num_batches, num_classes,
 * spatial_dimension], optional max_output_boxes_per_class, iou_threshold, score_threshold; output
 * selected_indices [num_selected_indices, 3] int64 (batch_index, class_index, box_index). */
enum nnperf_status infer_non_max_suppression(struct op_ctx *c)
{
    struct ir_value *b = op_in(c, 0), *s = op_in(c, 1);
    int64_t cpb = op_attr_int(c, "center_point_box", 0);
    if (cpb != 0 && cpb != 1)
        return op_err(c, "center_point_box", "is %lld, expected 0 or 1", (long long)cpb);
    if (b && b->rank >= 0) {
        if (b->rank != 3) return op_err(c, NULL, "boxes has rank %d, expected 3", b->rank);
        if (b->dims[2].val >= 0 && b->dims[2].val != 4)
            return op_err(c, NULL, "boxes has %lld coordinates per box, expected 4",
                          (long long)b->dims[2].val);
    }
    if (s && s->rank >= 0 && s->rank != 3) return op_err(c, NULL, "scores has rank %d, expected 3", s->rank);
    if (b && b->rank == 3 && s && s->rank == 3) {
        if (b->dims[0].val >= 0 && s->dims[0].val >= 0 && b->dims[0].val != s->dims[0].val)
            return op_err(c, NULL, "boxes has %lld batches but scores has %lld", (long long)b->dims[0].val,
                          (long long)s->dims[0].val);
        if (b->dims[1].val >= 0 && s->dims[2].val >= 0 && b->dims[1].val != s->dims[2].val)
            return op_err(c, NULL, "boxes has %lld boxes but scores has %lld", (long long)b->dims[1].val,
                          (long long)s->dims[2].val);
    }
    /* no boxes can be selected when max_output_boxes_per_class is 0 (or absent: ONNX default 0) */
    const struct ir_ival *m;
    int64_t nm = op_ivals(c, 2, &m);
    if (!op_in(c, 2) || (nm == 1 && m[0].known && m[0].v <= 0)) {
        struct ir_dim z[2] = {ir_dim_known(0), ir_dim_known(3)};
        return op_set(c, 0, DT_INT64, 2, z);
    }
    struct ir_dim d[2] = {{-2, NULL}, ir_dim_known(3)};
    return op_data_dependent(c, 0, DT_INT64, 2, d, "selected");
}
