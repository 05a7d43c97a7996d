// DeepNVMe advice: which handle (aio_handle or gds_handle), the constructor form the user's DeepSpeed accepts,
// and the I/O code. Facts: deepspeed-facts §4 (API, history, tools, numbers), §2.7 (the ds_config aio block),
// §2.6 (nvme_path), §5; literature §g. The `aio` block for NVMe offload belongs to the ZeRO advisor, so this
// advisor's config fragment stays empty.
#include "advise/NvmeAdvisor.h"

#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/SourceCatalog.h"
#include "util/Version.h"

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// aio_handle and gds_handle constructor defaults (py_ds_aio.cpp, py_ds_gds.cpp; the tutorial's help() output).
oj handleDefaults()
{
    return oj{{"block_size", 1048576},
              {"queue_depth", 128},
              {"single_submit", false},
              {"overlap_events", false},
              {"intra_op_parallelism", 1}};
}

// How the handle is constructed: keyword arguments from 0.15.0 (the 5th named num_threads until 0.15.2,
// intra_op_parallelism from 0.15.3); five required positional arguments before.
enum class CtorForm { Positional, NumThreads, Keywords };

struct Situation {
    std::string ds, cuda, dir, gpuName;
    bool cudaTensors = true, wantsGds = false, nvidia = false, pathMissing = false, useGds = false;
    CtorForm form = CtorForm::Keywords;
    bool hasTune() const { return versionAtLeast(ds, "0.15.2"); }
    std::string handle() const { return useGds ? "gds_handle" : "aio_handle"; }
    std::string builder() const { return useGds ? "GDSBuilder" : "AsyncIOBuilder"; }
    std::string parallelismName() const
    {
        return form == CtorForm::Keywords  ? "intra_op_parallelism"
            : form == CtorForm::NumThreads ? "num_threads"
                                           : "thread count";
    }
};

std::string formName(CtorForm f)
{
    return f == CtorForm::Keywords ? "intra_op_parallelism" : f == CtorForm::NumThreads ? "num_threads" : "positional";
}

// A Python string literal for a user-typed path.
std::string pyString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// A single-quoted shell word.
std::string shWord(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string hostOrDevice(const Situation& s, const std::string& what)
{
    return s.cudaTensors ? what + " = torch.empty(1024**3, dtype=torch.uint8, device=\"cuda\")"
                         : what + " = torch.empty(1024**3, dtype=torch.uint8).pin_memory()";
}

Snippet constructionSnippet(const Situation& s)
{
    std::string code = "import os\nimport torch\nfrom deepspeed.ops.op_builder import ";
    code += s.useGds ? "AsyncIOBuilder, GDSBuilder\n\n" : "AsyncIOBuilder\n\n";
    code += "NVME_DIR = " + pyString(s.dir)
        + (s.pathMissing ? "  # placeholder (the tutorial's): set hardware.nvme_path\n" : "  # hardware.nvme_path\n");
    const std::string call = "h = " + s.builder() + "().load()." + s.handle() + "(";
    if (s.form == CtorForm::Positional) {
        code += "# Before DeepSpeed 0.15.0 the constructor takes five required positional arguments:\n"
                "# block_size, queue_depth, single_submit, overlap_events, thread count\n"
                "# (values: the defaults the keyword form got in 0.15.0).\n"
            + call + "1048576, 128, False, False, 1)\n";
    } else {
        const std::string pad(call.size(), ' ');
        if (s.form == CtorForm::NumThreads)
            code +=
                "# DeepSpeed 0.15.0-0.15.2 names the fifth keyword num_threads (intra_op_parallelism from 0.15.3).\n";
        code += "# The constructor's defaults, written out: replace them with ds_nvme_tune's recommendation.\n" + call
            + "block_size=1048576,\n" + pad + "queue_depth=128,\n" + pad + "single_submit=False,\n" + pad
            + "overlap_events=False,\n" + pad + s.parallelismName() + "=1)\n";
    }
    code +=
        "\n" + hostOrDevice(s, "t") + "  # 1 GiB, as in the tutorial\npath = os.path.join(NVME_DIR, \"tensor.pt\")\n";
    return {"python", "Create the " + s.handle(), code};
}

std::vector<Snippet> ioSnippets(const Situation& s)
{
    std::vector<Snippet> out;
    out.push_back(
        {"python", "Blocking write and read (sync_pwrite / sync_pread)",
         "# Blocking: sync_pwrite returns once t is in the file, sync_pread once the file is in back.\n"
         "h.sync_pwrite(t, path)\n"
             + std::string(s.cudaTensors ? "back = torch.empty_like(t)\n" : "back = torch.empty_like(t).pin_memory()\n")
             + "h.sync_pread(back, path)\n"});
    out.push_back({"python", "Non-blocking write and read (async_pwrite, then wait())",
                   "# Non-blocking: async_pwrite returns at once, so I/O overlaps the work below.\n"
                   "h.async_pwrite(t, path)\n"
                   "# ... compute that neither modifies nor frees t ...\n"
                   "h.wait()  # returns the number of completed operations\n"
                   "# Only after wait() may t be reused: \"To avoid data races and corruptions, `.wait()` must be\n"
                   "# carefully used\" (DeepNVMe tutorial). The same holds for reading into back:\n"
                   "h.async_pread(back, path)\n"
                   "h.wait()  # back holds the data only from here on\n"});
    out.push_back(
        {"python", "Several files at once (pwrite with async)",
         "# pwrite(buffer, filename, validate, async): async=True submits and returns; pass it by position,\n"
         "# since async is a Python keyword. Many operations, one wait(). Each operation is also split over\n"
         "# the handle's "
             + s.parallelismName()
             + " threads (the tutorial's example uses 4).\n"
               "parts = t.chunk(4)\n"
               "for i, part in enumerate(parts):\n"
               "    h.pwrite(part, os.path.join(NVME_DIR, f\"part{i}.pt\"), False, True)\n"
               "h.wait()  # all four writes are done; the parts are views of t, so t must not change before\n"});
    std::string pinned;
    if (s.useGds)
        pinned = "# gds_handle pins CUDA tensors: allocate a pinned one, or pin a tensor you already have.\n"
                 "d = h.new_pinned_device_tensor(1024**3, torch.empty(0, dtype=torch.uint8, device=\"cuda\"))\n"
                 "h.sync_pwrite(d, path)\nh.free_pinned_device_tensor(d)\n\n"
                 "h.pin_device_tensor(t)\nh.async_pwrite(t, path)\nh.wait()\nh.unpin_device_tensor(t)\n";
    else if (versionAtLeast(s.ds, "0.8.1"))
        pinned = "# Page-locked host memory from the handle. Its signature is new_cpu_locked_tensor(num_elem, "
                 "example_tenosr):\n"
                 "# the keyword really is spelled example_tenosr in DeepSpeed's binding, so pass both by position.\n"
                 "buf = h.new_cpu_locked_tensor(1024**3, torch.empty(0, dtype=torch.uint8))\n"
                 "h.sync_pwrite(buf, path)\nh.free_cpu_locked_tensor(buf)\n";
    else
        pinned = "# new_cpu_locked_tensor arrived in DeepSpeed 0.8.1; pin host tensors with PyTorch instead.\n"
                 "buf = torch.empty(1024**3, dtype=torch.uint8).pin_memory()\nh.sync_pwrite(buf, path)\n";
    out.push_back({"python", "Pinned tensors", pinned});
    return out;
}

std::vector<Snippet> toolSnippets(const Situation& s)
{
    std::vector<Snippet> out;
    out.push_back(
        {"bash", "Check the ops with ds_report",
         std::string("# async_io must show [OKAY] as its compatible status")
             + (s.useGds
                    ? "; gds_handle also needs gds [OKAY]\n# (NVIDIA GDS with libcufile, CUDA PyTorch; not ROCm).\n"
                    : ".\n")
             + "ds_report 2>&1 | grep -E 'async_io|gds'\n"});
    out.push_back(
        {"bash", "Install libaio (needed by async_io)",
         "# The package DeepSpeed's async_io builder looks for, per package manager (run as root):\n"
         "apt install libaio-dev      # apt (Debian, Ubuntu)\n"
         "yum install libaio-devel    # yum (rpm-based)\n"
         "pacman -S libaio            # pacman (Arch)\n"
         "# libaio installed elsewhere (e.g. from source): set CFLAGS (-I...) and LDFLAGS (-L...) to its folders.\n"});
    if (!s.hasTune())
        return out;
    std::string cmd = "ds_nvme_tune --nvme_dir " + shWord(s.dir);
    if (s.cudaTensors)
        cmd += " --gpu";
    if (s.useGds)
        cmd += " --gds";
    if (s.pathMissing)
        cmd += "  # placeholder directory: set hardware.nvme_path";
    out.push_back(
        {"bash", "Tune the handle with ds_nvme_tune",
         "# Sweeps the handle settings on the SSD (logs in ./_aio_bench_logs); the tutorial's run took about\n"
         "# four and a half minutes. It prints the best read/write GB/sec and an {\"aio\": {...}} recommendation\n"
         "# whose booleans are strings (\"false\"/\"true\"): convert them before use.\n"
             + cmd + "\n"});
    std::string apply =
        "# Paste the \"aio\" object ds_nvme_tune printed (this one is the tutorial's example output).\n"
        "tuned = {\"single_submit\": \"false\", \"overlap_events\": \"true\", \"intra_op_parallelism\": 8,\n"
        "         \"queue_depth\": 32, \"block_size\": 1048576}\n"
        "# Its booleans are strings, and bool(\"false\") is True in Python: convert them.\n"
        "kwargs = {k: v == \"true\" if isinstance(v, str) else v for k, v in tuned.items()}\n";
    if (s.form == CtorForm::NumThreads)
        apply += "if \"intra_op_parallelism\" in kwargs:  # DeepSpeed 0.15.0-0.15.2 names it num_threads\n"
                 "    kwargs[\"num_threads\"] = kwargs.pop(\"intra_op_parallelism\")\n";
    apply += "h = " + s.builder() + "().load()." + s.handle() + "(**kwargs)\n";
    out.push_back({"python", "Use ds_nvme_tune's result", apply});
    return out;
}

// Why GDS is or is not used. Every blocker is reported, so the user sees all that must change.
void decideHandle(Advice& adv, Situation& s)
{
    if (!s.cudaTensors) {
        adv.checks.push_back({s.wantsGds ? CheckLevel::Warn : CheckLevel::Pass, "nvme-gds-cpu-tensors",
                              "aio_handle: the tensors are in host memory, and gds_handle works only on CUDA tensors.",
                              "ds-deepnvme-tutorial"});
        return;
    }
    if (!s.wantsGds) {
        adv.checks.push_back(
            {CheckLevel::Pass, "nvme-gds-unavailable",
             "aio_handle: GPUDirect Storage is not available (nvme.gds = false), so CUDA tensors go "
             "through host memory (the bounce buffer). With GDS installed on an NVIDIA GPU, gds_handle "
             "could be used.",
             "ds-deepnvme-tutorial"});
        return;
    }
    bool blocked = false;
    if (!s.nvidia) {
        blocked = true;
        adv.checks.push_back({CheckLevel::Warn, "nvme-gds-not-nvidia",
                              "GDS is NVIDIA-only: DeepSpeed's gds op reports itself not compatible with ROCm, and "
                                  + s.gpuName + " is not an NVIDIA GPU. aio_handle is used.",
                              "ds-gds-op"});
    }
    if (!versionAtLeast(s.cuda, "11.4")) {
        blocked = true;
        adv.checks.push_back({CheckLevel::Warn, "nvme-gds-cuda-too-old",
                              "CUDA " + s.cuda + ": " + quoteOf("ds-gds-cuda")
                                  + " "
                                    "aio_handle is used.",
                              "ds-gds-cuda"});
    }
    if (!versionAtLeast(s.ds, "0.15.0"))
        blocked = true; // reported by the version check as nvme-deepspeed-too-old (fail)
    s.useGds = !blocked;
    if (s.useGds)
        adv.checks.push_back({CheckLevel::Pass, "nvme-gds-ready",
                              "gds_handle: CUDA tensors, GDS available, an NVIDIA GPU (" + s.gpuName + "), CUDA "
                                  + s.cuda + " (11.4 or newer) and DeepSpeed " + s.ds
                                  + " (0.15.0 or newer). It needs the async_io "
                                    "and gds ops: confirm with ds_report.",
                              "ds-deepnvme-tutorial"});
}

void versionChecks(Advice& adv, const Situation& s)
{
    if (!versionAtLeast(s.ds, "0.3.15"))
        adv.checks.push_back(
            {CheckLevel::Fail, "nvme-deepspeed-too-old",
             "DeepSpeed " + s.ds + " predates aio_handle (added with ZeRO-Infinity in 0.3.15): upgrade.",
             "ds-deepnvme-history"});
    else if (!versionAtLeast(s.ds, "0.15.0"))
        adv.checks.push_back(
            {s.wantsGds && s.cudaTensors ? CheckLevel::Fail : CheckLevel::Warn, "nvme-deepspeed-too-old",
             "DeepSpeed " + s.ds + " is older than 0.15.0, which the DeepNVMe tutorial requires: "
                 + std::string(s.wantsGds && s.cudaTensors ? "gds_handle and GDSBuilder do not exist, so GDS "
                                                             "cannot be used. "
                                                           : "")
                 + "aio_handle exists but takes five required positional arguments (the snippet uses "
                   "that form); upgrading gives the tutorial's API.",
             "ds-deepnvme-requirements"});
    else if (!versionAtLeast(s.ds, "0.15.3"))
        adv.checks.push_back({CheckLevel::Warn, "nvme-num-threads-keyword",
                              "DeepSpeed " + s.ds
                                  + ": the fifth constructor keyword is num_threads; the tutorial's "
                                    "intra_op_parallelism (and get_intra_op_parallelism) arrived in 0.15.3. The "
                                    "snippets use num_threads.",
                              "ds-deepnvme-history"});
    if (!s.hasTune())
        adv.checks.push_back({CheckLevel::Warn, "nvme-tune-unavailable",
                              "ds_nvme_tune and ds_io arrived in DeepSpeed 0.15.2; " + s.ds
                                  + " has neither, so tune the handle by hand or upgrade.",
                              "ds-deepnvme-history"});
    // The ZeRO advisor writes the key right; the trap is a hand-edited block or a copied tuning result.
    if (versionAtLeast(s.ds, "0.16.4"))
        adv.checks.push_back(
            {CheckLevel::Warn, "nvme-aio-key-renamed",
             "In the ds_config aio block (NVMe offload) write intra_op_parallelism: thread_count was "
             "renamed in 0.16.4 and is silently ignored (the published config docs still show thread_count).",
             "ds-aio"});
    else
        adv.checks.push_back(
            {CheckLevel::Warn, "nvme-aio-key-renamed",
             "DeepSpeed " + s.ds
                 + " reads the aio block's parallelism as thread_count (renamed "
                   "intra_op_parallelism in 0.16.4): a value written as intra_op_parallelism, as the tutorial's "
                   "ds_nvme_tune output writes it, is ignored here, so write it as thread_count.",
             "ds-aio"});
}

void addTradeoffs(Advice& adv, const Situation& s, const oj& aioDefaults)
{
    // Texts that depend on no answer are written once (sources.tsv does not change while the program runs).
    static const std::string kHandles = quoteExcerpt("ds-deepnvme-tutorial", "The `aio_handle`", "more efficient.")
        + " " + quoteExcerpt("ds-deepnvme-tutorial", "`aio_handle` requires");
    static const std::string kGds = "DeepNVMe blog, Azure NC96ads_A100_v4, 1GB transfers: "
        + quoteExcerpt("ds-deepnvme-blog-2024", "GDS improves performance") + " "
        + quoteExcerpt("ds-deepnvme-blog-2024", "With GDS, DeepNVMe")
        + " LLAMA3-70B on one A100-80GB: " + quoteExcerpt("ds-deepnvme-blog-2024", "With four NVMe SSDs");
    static const std::string kHost = "DeepNVMe blog, Azure NC96ads_A100_v4 with four NVMe SSDs in RAID-0, each "
        + quoteExcerpt("ds-deepnvme-blog-2024-cpu", "individually capable") + ": "
        + quoteExcerpt("ds-deepnvme-blog-2024-cpu", "DeepNVMe scales");
    static const std::string kBlocking =
        "sync_pwrite/sync_pread return when the I/O is done. async_pwrite/async_pread return at once "
        "so computation overlaps I/O, and one wait() can cover several operations; but "
        + quoteOf("ds-deepnvme-wait") + " For best performance use pinned host or device tensors.";
    adv.tradeoffs.push_back({"aio_handle or gds_handle", kHandles, "ds-deepnvme-tutorial"});
    if (s.cudaTensors)
        adv.tradeoffs.push_back(
            {"GDS against the bounce buffer (published measurements, not a promise)", kGds, "ds-deepnvme-blog-2024"});
    else
        adv.tradeoffs.push_back(
            {"Host-memory transfers (published measurement, not a promise)", kHost, "ds-deepnvme-blog-2024-cpu"});
    adv.tradeoffs.push_back({"Blocking or non-blocking", kBlocking, "ds-deepnvme-wait"});
    adv.tradeoffs.push_back(
        {"Handle defaults are not the ds_config aio defaults",
         "Handles you create in your code default to block_size 1048576, queue_depth 128, single_submit "
         "False, overlap_events False, intra_op_parallelism 1. ZeRO-Infinity's NVMe offload builds its "
         "own handles from the ds_config aio block, whose defaults are block_size "
             + aioDefaults.at("block_size").dump() + ", queue_depth " + aioDefaults.at("queue_depth").dump()
             + ", intra_op_parallelism " + aioDefaults.at("intra_op_parallelism").dump() + ", single_submit "
             + aioDefaults.at("single_submit").dump() + ", overlap_events " + aioDefaults.at("overlap_events").dump()
             + "; the ZeRO workflow writes that block. Tuning one does not change the other.",
         "ds-deepnvme-handle-defaults"});
    adv.tradeoffs.push_back(
        {"Parallelism keyword by version",
         "The fifth constructor argument is intra_op_parallelism from DeepSpeed 0.15.3, num_threads in "
         "0.15.0-0.15.2, and positional (with no defaults) before 0.15.0. Your DeepSpeed "
             + s.ds + " takes the " + formName(s.form)
             + " form. The ds_config key thread_count became "
               "intra_op_parallelism separately, in 0.16.4.",
         "ds-deepnvme-history"});
    static const std::string kTune = "The tutorial's example, `ds_nvme_tune --nvme_dir /local_nvme --gpu`, printed "
        + quoteExcerpt("ds-deepnvme-tune", "Best performance")
        + " and recommended {\"aio\": {\"single_submit\": \"false\", \"overlap_events\": \"true\", "
          "\"intra_op_parallelism\": 8, \"queue_depth\": 32, \"block_size\": 1048576}} on "
        + quoteExcerpt("ds-deepnvme-tune", "two NVIDIA A6000", "half minutes.")
        + " Its booleans are strings: convert them to true/false before use.";
    adv.tradeoffs.push_back({"Tuning with ds_nvme_tune (DeepSpeed 0.15.2 or newer)", kTune, "ds-deepnvme-tune"});
    adv.tradeoffs.push_back(
        {"GDS for ZeRO-Infinity offload",
         "This workflow adds nothing to the ds_config. For NVMe offload, the aio block's use_gds "
         "(DeepSpeed 0.15.0 or newer, CUDA only) lets the parameter swapper use GDS; optimizer state "
         "swapping always uses async_io.",
         "ds-aio"});
}

void addEstimates(Advice& adv, const Situation& s)
{
    const std::string where = "published measurement, DeepNVMe blog: Azure NC96ads_A100_v4, four NVMe SSDs in RAID-0, "
                              "1GB transfers; not a prediction for this hardware";
    if (!s.cudaTensors) {
        adv.estimates.push_back({"Reads, host memory (blog)", 10, "GB/sec", where, "ds-deepnvme-blog-2024-cpu"});
        adv.estimates.push_back({"Writes, host memory (blog)", 5, "GB/sec", where, "ds-deepnvme-blog-2024-cpu"});
    } else if (s.useGds) {
        adv.estimates.push_back(
            {"Reads, GPU memory with GDS (blog maximum)", 9.6, "GB/sec", where, "ds-deepnvme-blog-2024"});
        adv.estimates.push_back(
            {"Writes, GPU memory with GDS (blog maximum)", 5, "GB/sec", where, "ds-deepnvme-blog-2024"});
    } else {
        adv.estimates.push_back({"Reads, GPU memory without GDS (blog)", 7, "GB/sec", where, "ds-deepnvme-blog-2024"});
        adv.estimates.push_back({"Writes, GPU memory without GDS (blog)", 4, "GB/sec", where, "ds-deepnvme-blog-2024"});
    }
}

} // namespace

Advice adviseNvme(const Job& job, const Answers& a)
{
    Advice adv;
    adv.workflow = "nvme";
    const oj& aioDefaults = deepspeedKnowledge().at("aio_defaults"); // keeps the file's key order
    static const oj kHandleDefaults = handleDefaults();
    adv.details["handle"] = nullptr;
    adv.details["tensor_location"] = a.text("nvme.tensor_location");
    adv.details["constructor_form"] = nullptr;
    adv.details["handle_defaults"] = kHandleDefaults;
    adv.details["ds_config_aio_defaults"] = aioDefaults;

    if (a.text("hardware.nvme") != "nvme") {
        adv.status = AdviceStatus::NotApplicable;
        adv.headline =
            "Not applicable: DeepNVMe needs a local NVMe SSD (set hardware.nvme = nvme and hardware.nvme_path)";
        adv.tradeoffs.push_back(
            {"What DeepNVMe does",
             "DeepNVMe moves tensors between files on a local NVMe SSD and host or GPU memory, with "
             "Linux asynchronous I/O (libaio) through aio_handle, or NVIDIA GPUDirect Storage through "
             "gds_handle for CUDA tensors. Without an NVMe SSD there is nothing for it to drive.",
             "ds-deepnvme-tutorial"});
        adv.sources = {"ds-deepnvme-tutorial"};
        return adv;
    }

    Situation s;
    s.ds = a.text("software.deepspeed_version");
    s.cuda = a.text("software.cuda_version");
    s.cudaTensors = a.text("nvme.tensor_location") == "cuda";
    const auto gds = a.value("nvme.gds");
    s.wantsGds = gds.is_boolean() && gds.get<bool>();
    s.gpuName = job.gpu ? job.gpu->id : a.text("hardware.gpu");
    s.nvidia = job.gpu && job.gpu->vendor.rfind("NVIDIA", 0) == 0;
    s.dir = a.text("hardware.nvme_path");
    s.pathMissing = s.dir.empty();
    if (s.pathMissing)
        s.dir = "/local_nvme";
    s.form = !versionAtLeast(s.ds, "0.15.0") ? CtorForm::Positional
        : !versionAtLeast(s.ds, "0.15.3")    ? CtorForm::NumThreads
                                             : CtorForm::Keywords;

    if (s.pathMissing) {
        adv.checks.push_back({CheckLevel::Fail, "nvme-path-missing",
                              "hardware.nvme is nvme but hardware.nvme_path is empty: NVMe offload needs nvme_path "
                              "(\"nvme_path\" in DeepSpeed Config cannot be None if remote device is nvme), and the "
                              "snippets below use the tutorial's /local_nvme as a placeholder.",
                              "ds-nvme-path"});
        adv.missing.push_back("hardware.nvme_path");
    }
    decideHandle(adv, s);
    versionChecks(adv, s);
    adv.checks.push_back(
        {CheckLevel::Warn, "nvme-ssd-endurance",
         "DeepSpeed " + knowledgeVersion() + " logs this on the first NVMe write: " + quoteOf("ds-nvme-endurance"),
         "ds-nvme-endurance"});

    adv.status = s.pathMissing ? AdviceStatus::NeedsInput : AdviceStatus::Complete;
    adv.headline = s.useGds ? "gds_handle: CUDA tensors to and from NVMe directly with GPUDirect Storage"
        : s.cudaTensors     ? "aio_handle: CUDA tensors to and from NVMe through host memory (libaio)"
                            : "aio_handle: host tensors to and from NVMe with libaio";
    if (s.pathMissing)
        adv.headline += " (set hardware.nvme_path)";

    addTradeoffs(adv, s, aioDefaults);
    addEstimates(adv, s);
    adv.snippets.push_back(constructionSnippet(s));
    for (auto& snippet : ioSnippets(s))
        adv.snippets.push_back(std::move(snippet));
    for (auto& snippet : toolSnippets(s))
        adv.snippets.push_back(std::move(snippet));

    adv.details["handle"] = s.handle();
    adv.details["constructor_form"] = formName(s.form);
    adv.details["ds_nvme_tune"] = s.hasTune();
    adv.sources = {"ds-deepnvme-tutorial",
                   "ds-deepnvme-requirements",
                   "ds-deepnvme-wait",
                   "ds-deepnvme-handle-defaults",
                   "ds-deepnvme-history",
                   "ds-deepnvme-tune",
                   s.cudaTensors ? "ds-deepnvme-blog-2024" : "ds-deepnvme-blog-2024-cpu",
                   "ds-aio",
                   "ds-aio-op",
                   "ds-nvme-endurance"};
    if (s.pathMissing)
        adv.sources.push_back("ds-nvme-path");
    if (s.wantsGds && s.cudaTensors)
        adv.sources.insert(adv.sources.end(), {"ds-gds-op", "ds-gds-cuda"});
    return adv;
}

} // namespace dsw
