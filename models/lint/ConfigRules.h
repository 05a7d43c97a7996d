#pragma once

namespace dsw {

class LintReport;

// The semantic lint rules: what the keys mean together, at the ZeRO stage DeepSpeed ends up with,
// on the hardware and versions the user named. The per-key schema pass is in ConfigLinter.cpp.
void applyConfigRules(LintReport& report);

// The batch-size identity train_batch_size = micro-batch × accumulation × data-parallel size, with
// DeepSpeed's floor-division inference when only some of the three are given.
void lintBatchSizes(LintReport& report);

} // namespace dsw
