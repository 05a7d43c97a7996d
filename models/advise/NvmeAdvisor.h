#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "project/Answers.h"

namespace dsw {

// DeepNVMe tensor I/O: aio_handle or gds_handle, blocking vs non-blocking code, tuning, ds_report.
Advice adviseNvme(const Job& job, const Answers& answers);

} // namespace dsw
