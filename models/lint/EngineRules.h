#pragma once

namespace dsw {

class LintReport;

// What DeepSpeed's engine refuses or warns about at initialisation although DeepSpeedConfig accepts the file:
// the optimizer and scheduler it builds (names, constructor parameters, optimizers ZeRO has not been tested
// with, warmup_num_steps), data_types.param_dtype against the enabled precision, managed_gradient_accumulation.
void applyEngineRules(LintReport& report);

} // namespace dsw
