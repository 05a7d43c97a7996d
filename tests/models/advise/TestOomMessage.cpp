// The out-of-memory message parser (models/advise/OomMessage.h) on real-looking messages.
//
// tests/data/oom/*.txt follow the wordings of PyTorch's c10/cuda/CUDACachingAllocator.cpp:
//   PyTorch <= 2.0: "CUDA out of memory. Tried to allocate X (GPU n; X total capacity; X already allocated; X free;
//                    [X allowed; ]X reserved in total by PyTorch)" (<= 1.4: "X cached)" instead of "reserved in total")
//   PyTorch 2.1:    "... Tried to allocate X. GPU n has a total capacty of X of which X is free. [Process p has X memory
//                    in use. ][Including non-PyTorch memory, this process has X memory in use. ]Of the allocated memory X
//                    is allocated by PyTorch, [with X allocated in private pools (e.g., CUDA Graphs), ]and X is reserved
//                    by PyTorch but unallocated. ... max_split_size_mb ..."
//   PyTorch >= 2.2: the same with "capacity" and the expandable_segments:True hint,
// as seen in public reports (e.g. pytorch/pytorch#16417, #59778, murong-xu/CADS#4, lllyasviel/FramePack#369);
// the numbers in the files are made up. format_size prints 2 decimals in 1024 steps: bytes ≤ 1024, KiB ≤ 1 MiB,
// MiB ≤ 1 GiB, GiB above. Expected bytes are value × unit rounded to the nearest byte, computed by hand below.
#include "advise/OomMessage.h"

#include <QFile>
#include <QTest>

using namespace dsw;

namespace {

constexpr qint64 kNone = -1; // the message lacks the field
constexpr qint64 GiB = 1073741824, MiB = 1048576;

std::string readSample(const QString& name)
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/oom/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll().toStdString();
}

qint64 orNone(const std::optional<std::int64_t>& v) { return v ? static_cast<qint64>(*v) : kNone; }
QString kindOf(const OomReport& r) { return QString::fromStdString(toString(r.kind)); }

} // namespace

class TestOomMessage : public QObject {
    Q_OBJECT

private slots:
    void cudaSamples_data();
    void cudaSamples();
    void sizes_data();
    void sizes();
    void hostKills_data();
    void hostKills();
    void batchAssertion_data();
    void batchAssertion();
    void unrecognised_data();
    void unrecognised();
    void otherWordings();
    void whichProcessesAreOthers_data();
    void whichProcessesAreOthers();
    void garbageAndHugeInput();
    void capAt64KiB();
};

void TestOomMessage::cudaSamples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("format");
    QTest::addColumn<qint64>("tried");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("free");
    QTest::addColumn<qint64>("allocated");
    QTest::addColumn<qint64>("reserved");
    QTest::addColumn<qint64>("reservedUnallocated");
    QTest::addColumn<qint64>("processInUse");
    QTest::addColumn<qint64>("otherProcesses");
    QTest::addColumn<QString>("hint");

    // tried 2.00 GiB = 2147483648; total 79.15 × 2^30 = 84986665369.6 → 84986665370; free 1.02 × 2^30 =
    // 1095216660.48 → 1095216660; allocated 75.50 × 2^30 = 81067507712; unallocated 1.90 × 2^30 = 2040109465.6 →
    // 2040109466; reserved = 81067507712 + 2040109466 = 83107617178; this process 78.11 × 2^30 = 83869973872.64 →
    // 83869973873; "Process 12345" 78.12 × 2^30 = 83880711290.88 → 83880711291 is this process listed again (within
    // 64 MiB of "this process has", and total − free = 78.13 GiB leaves no room for both): no other process, 0.
    QTest::newRow("2.2+ A100, GPU 3, torch.OutOfMemoryError")
        << "new_format_a100_rank3_backward.txt" << 3 << "pytorch-2.1-or-newer" << 2 * GiB << 84986665370LL
        << 1095216660LL << 81067507712LL << 83107617178LL << 2040109466LL << 83869973873LL << 0LL
        << "expandable_segments";
    // Another process really holds memory. tried 298.00 MiB = 312475648; total 44.39 × 2^30 = 47663399567.36 →
    // 47663399567; free 12.06 × 2^20 = 12645826.56 → 12645827; allocated 34.98 × 2^30 = 37559489003.52 → 37559489004;
    // unallocated 812.00 MiB = 851443712; reserved = 38410932716; this process 36.30 × 2^30 = 38976828211.2 →
    // 38976828211; "Process 6324" 8.06 × 2^30 = 8654359101.44 → 8654359101 (total − free − this = 8.08 GiB agrees).
    QTest::newRow("2.2+ another process on the GPU")
        << "new_format_other_process_gpu0.txt" << 0 << "pytorch-2.1-or-newer" << 312475648LL << 47663399567LL
        << 12645827LL << 37559489004LL << 38410932716LL << 851443712LL << 38976828211LL << 8654359101LL
        << "expandable_segments";
    // tried 20.00 MiB = 20971520; total 15.78 × 2^30 = 16943645982.72 → 16943645983; allocated 14.56 × 2^30 =
    // 15633680957.44 → 15633680957; free 3.44 × 2^20 = 3607101.44 → 3607101; reserved 14.80 × 2^30 = 15891378995.2
    // → 15891378995.
    QTest::newRow("<=2.0 V100, GPU 1, RuntimeError")
        << "old_format_v100_gpu1_runtimeerror.txt" << 1 << "pytorch-2.0-or-older" << 20 * MiB << 16943645983LL
        << 3607101LL << 15633680957LL << 15891378995LL << kNone << kNone << kNone << "max_split_size_mb";
    // tried 512.00 KiB = 524288; total 23.65 × 2^30 = 25393994137.6 → 25393994138; free 832.00 KiB = 851968;
    // allocated 21.87 × 2^30 = 23482733690.88 → 23482733691; unallocated 1.26 × 2^30 = 1352914698.24 → 1352914698;
    // reserved = 23482733691 + 1352914698 = 24835648389; "Process 48213" 23.64 × 2^30 = 25383256719.36 → 25383256719,
    // the only entry and no "this process has": it is this process (pid namespaces differ), no other process, 0.
    QTest::newRow("2.1 'capacty', KiB, GPU 2, torch.cuda.OutOfMemoryError")
        << "new_format_2_1_typo_kib_gpu2.txt" << 2 << "pytorch-2.1-or-newer" << 524288LL << 25393994138LL << 851968LL
        << 23482733691LL << 24835648389LL << 1352914698LL << kNone << 0LL << "max_split_size_mb";
    // The first of two ranks' messages, wrapped over lines. tried 384.00 MiB = 402653184; total 39.39 × 2^30 =
    // 42294690447.36 → 42294690447; free "0 bytes"; this process 39.38 × 2^30 = 42283953029.12 → 42283953029;
    // allocated 38.20 × 2^30 = 41016937676.8 → 41016937677 (includes the private pools); unallocated "0 bytes";
    // reserved = 41016937677 + 0.
    QTest::newRow("2.2+ wrapped, bytes, CUDA graphs, GPU 7 of two ranks")
        << "new_format_wrapped_bytes_two_ranks.txt" << 7 << "pytorch-2.1-or-newer" << 402653184LL << 42294690447LL
        << 0LL << 41016937677LL << 41016937677LL << 0LL << 42283953029LL << kNone << "expandable_segments";
    // tried 1006.00 MiB = 1054867456; total 10.76 × 2^30 = 11553462026.24 → 11553462026; allocated 9.64 × 2^30 =
    // 10350871183.36 → 10350871183; free 5.62 × 2^20 = 5892997.12 → 5892997; "cached" 9.83 × 2^30 = 10554882129.92 →
    // 10554882130.
    QTest::newRow("1.4 'cached', GPU 0, no hint")
        << "old_format_cached_torch1_4.txt" << 0 << "pytorch-2.0-or-older" << 1054867456LL << 11553462026LL << 5892997LL
        << 10350871183LL << 10554882130LL << kNone << kNone << kNone << "";
    // tried 20.00 GiB = 21474836480; total 79.35 × 2^30 = 85201413734.4 → 85201413734; allocated 38.91 × 2^30 =
    // 41779294371.84 → 41779294372; free 39.83 × 2^30 = 42767136849.92 → 42767136850; "40.00 GiB allowed" skipped;
    // reserved 39.62 × 2^30 = 42541651066.88 → 42541651067.
    QTest::newRow("<=2.0 with 'allowed' (memory fraction)")
        << "old_format_allowed_fraction_gpu0.txt" << 0 << "pytorch-2.0-or-older" << 21474836480LL << 85201413734LL
        << 42767136850LL << 41779294372LL << 42541651067LL << kNone << kNone << kNone << "max_split_size_mb";
    // tried 22.78 × 2^30 = 24459838750.72 → 24459838751; total 31.47 × 2^30 = 33790655201.28 → 33790655201; free 12.73 ×
    // 2^30 = 13668733419.52 → 13668733420; this process 18.73 × 2^30 = 20111184363.52 → 20111184364; allocated 9.08 ×
    // 2^30 = 9749575761.92 → 9749575762; unallocated 9.35 × 2^30 = 10039486054.4 → 10039486054; reserved = 19789061816.
    QTest::newRow("2.2+ fragmented, GPU 1")
        << "new_format_fragmented_gpu1.txt" << 1 << "pytorch-2.1-or-newer" << 24459838751LL << 33790655201LL
        << 13668733420LL << 9749575762LL << 19789061816LL << 10039486054LL << 20111184364LL << kNone
        << "expandable_segments";
}

void TestOomMessage::cudaSamples()
{
    QFETCH(QString, file);
    QFETCH(int, gpu);
    QFETCH(QString, format);
    QFETCH(qint64, tried);
    QFETCH(qint64, total);
    QFETCH(qint64, free);
    QFETCH(qint64, allocated);
    QFETCH(qint64, reserved);
    QFETCH(qint64, reservedUnallocated);
    QFETCH(qint64, processInUse);
    QFETCH(qint64, otherProcesses);
    QFETCH(QString, hint);

    const OomReport r = parseOomMessage(readSample(file));
    QCOMPARE(kindOf(r), QStringLiteral("cuda-out-of-memory"));
    QCOMPARE(r.device, std::string("CUDA"));
    QVERIFY(r.gpuIndex.has_value());
    QCOMPARE(*r.gpuIndex, gpu);
    QCOMPARE(QString::fromStdString(toString(r.format)), format);
    QCOMPARE(orNone(r.triedToAllocate), tried);
    QCOMPARE(orNone(r.totalCapacity), total);
    QCOMPARE(orNone(r.free), free);
    QCOMPARE(orNone(r.allocated), allocated);
    QCOMPARE(orNone(r.reserved), reserved);
    QCOMPARE(orNone(r.reservedUnallocated), reservedUnallocated);
    QCOMPARE(orNone(r.processInUse), processInUse);
    QCOMPARE(orNone(r.otherProcessesInUse), otherProcesses);
    QCOMPARE(QString::fromStdString(r.allocatorHint), hint);
    QVERIFY(!r.truncated);
}

void TestOomMessage::sizes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("bytes") << "0 bytes" << 0LL;
    QTest::newRow("1024 bytes") << "1024 bytes" << 1024LL;
    QTest::newRow("B") << "512 B" << 512LL;
    QTest::newRow("half rounds up") << "0.5 B" << 1LL;                 // 0.5 → 1
    QTest::newRow("KiB") << "1.50 KiB" << 1536LL;                      // 1.5 × 1024
    QTest::newRow("MiB 1024.00") << "1024.00 MiB" << 1073741824LL;     // 1024 × 2^20
    QTest::newRow("GiB 0.01") << "0.01 GiB" << 10737418LL;             // 10737418.24 → 10737418
    QTest::newRow("GiB huge") << "130206.04 GiB" << 139807670885417LL; // 130206.04 × 2^30 = 139807670885416.96
    QTest::newRow("decimal GB refused") << "1.00 GB" << kNone;
    QTest::newRow("no space") << "1.00GiB" << kNone;
    QTest::newRow("no number") << "GiB" << kNone;
    QTest::newRow("trailing dot") << "1. GiB" << kNone;
    QTest::newRow("negative") << "-1.00 GiB" << kNone;
    QTest::newRow("overflow") << "99999999999999 GiB" << kNone;
    QTest::newRow("trailing text") << "1.00 GiB free" << kNone;
}

void TestOomMessage::sizes()
{
    QFETCH(QString, text);
    QFETCH(qint64, bytes);
    QCOMPARE(orNone(parseSizeBytes(text.toStdString())), bytes);
}

void TestOomMessage::hostKills_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("marker");
    QTest::newRow("deepspeed launcher file")
        << QString::fromStdString(readSample("host_killed_deepspeed_launcher.txt")) << "return code = -9";
    QTest::newRow("torchrun file") << QString::fromStdString(readSample("host_killed_torchrun.txt")) << "exitcode: -9";
    QTest::newRow("accelerate file") << QString::fromStdString(readSample("host_killed_accelerate.txt")) << "SIGKILL";
    QTest::newRow("shell file") << QString::fromStdString(readSample("host_killed_shell.txt")) << "Killed";
    QTest::newRow("exit code -9") << "Process finished with exit code -9"
                                  << "exit code -9";
    QTest::newRow("exitcode spaced colon") << "  exitcode  : -9 (pid: 12)"
                                           << "exitcode : -9";
    QTest::newRow("container 137") << "Last State: Terminated Reason: OOMKilled Exit Code: 137"
                                   << "Exit Code: 137";
    QTest::newRow("OOMKilled alone") << "Reason: OOMKilled"
                                     << "OOMKilled";
    QTest::newRow("kernel") << "Out of memory: Killed process 4242 (python) total-vm:1234kB"
                            << "Killed";
    QTest::newRow("slurm") << "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=77.0."
                           << "oom-kill";
}

void TestOomMessage::hostKills()
{
    QFETCH(QString, text);
    QFETCH(QString, marker);
    const OomReport r = parseOomMessage(text.toStdString());
    QCOMPARE(kindOf(r), QStringLiteral("host-killed"));
    QCOMPARE(QString::fromStdString(r.marker), marker);
    QVERIFY(!r.triedToAllocate && !r.totalCapacity && !r.batchTrain);
}

void TestOomMessage::batchAssertion_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("train");
    QTest::addColumn<qint64>("micro");
    QTest::addColumn<qint64>("accumulation");
    QTest::addColumn<qint64>("world");
    QTest::newRow("file") << QString::fromStdString(readSample("batch_assertion.txt")) << 100LL << 3LL << 4LL << 8LL;
    QTest::newRow("one GPU") << "AssertionError: Check batch related parameters. train_batch_size is not equal to "
                                "micro_batch_per_gpu * gradient_acc_step * world_size 8 != 2 * 1 * 1"
                             << 8LL << 2LL << 1LL << 1LL;
    QTest::newRow("float world size (sequence parallel division)")
        << "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * "
           "world_size 64 != 4 * 8 * 4.0"
        << 64LL << 4LL << 8LL << 4LL;
    QTest::newRow("numbers cut off")
        << "AssertionError: Check batch related parameters. train_batch_size is not equal to "
           "micro_batch_per_gpu * gradient_acc_step * world_size 64 != 4 *"
        << kNone << kNone << kNone << kNone;
    QTest::newRow("absurd numbers refused")
        << "Check batch related parameters. world_size 99999999999 != 4 * 8 * 2" << kNone << kNone << kNone << kNone;
    QTest::newRow("real fraction is not a count")
        << "Check batch related parameters. world_size 64 != 4 * 8 * 2.5" << kNone << kNone << kNone << kNone;
}

void TestOomMessage::batchAssertion()
{
    QFETCH(QString, text);
    QFETCH(qint64, train);
    QFETCH(qint64, micro);
    QFETCH(qint64, accumulation);
    QFETCH(qint64, world);
    const OomReport r = parseOomMessage(text.toStdString());
    QCOMPARE(kindOf(r), QStringLiteral("batch-assertion"));
    QCOMPARE(orNone(r.batchTrain), train);
    QCOMPARE(orNone(r.batchMicro), micro);
    QCOMPARE(orNone(r.batchAccumulation), accumulation);
    QCOMPARE(orNone(r.batchWorld), world);
}

void TestOomMessage::unrecognised_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("fp16 loss scale") << QString::fromStdString(readSample("unrecognised_loss_scale.txt"));
    QTest::newRow("empty") << "";
    QTest::newRow("prose") << "my job ran out of memory and was killed, what do I do?";
    QTest::newRow("exit code 1") << "exits with return code = 1";
    QTest::newRow("exit code -90") << "exit code -90";
    QTest::newRow("size missing") << "CUDA out of memory. Tried to allocate a lot";
    QTest::newRow("other accelerator")
        << "XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 64.00 GiB";
    QTest::newRow("Killedx is not a word") << "SomethingKilledNothing";
}

void TestOomMessage::unrecognised()
{
    QFETCH(QString, text);
    const OomReport r = parseOomMessage(text.toStdString());
    QCOMPARE(kindOf(r), QStringLiteral("unrecognised"));
    QVERIFY(!r.triedToAllocate && !r.totalCapacity && !r.free && !r.allocated && !r.reserved && !r.batchTrain);
}

void TestOomMessage::otherWordings()
{
    // ROCm builds print "HIP" in the same message. total 191.98 × 2^30 = 206136955371.52 → 206136955372; free 1.10 × 2^30
    // = 1181116006.4 → 1181116006; allocated 180 × 2^30 = 193273528320; reserved = 193273528320 + 4 × 2^30 = 197568495616.
    const OomReport hip = parseOomMessage("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU "
                                          "1 has a total capacity of 191.98 GiB of "
                                          "which 1.10 GiB is free. Of the allocated memory 180.00 GiB is allocated by "
                                          "PyTorch, and 4.00 GiB is reserved by "
                                          "PyTorch but unallocated.");
    QCOMPARE(kindOf(hip), QStringLiteral("cuda-out-of-memory"));
    QCOMPARE(hip.device, std::string("HIP"));
    QCOMPARE(hip.gpuIndex.value_or(-1), 1);
    QCOMPARE(orNone(hip.totalCapacity), 206136955372LL);
    QCOMPARE(orNone(hip.free), 1181116006LL);
    QCOMPARE(orNone(hip.reserved), 197568495616LL);
    QCOMPARE(QString::fromStdString(hip.allocatorHint), QString());

    // The CUDA runtime's own error (outside PyTorch's allocator) prints no sizes: recognised, nothing invented.
    const OomReport runtime = parseOomMessage("RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be "
                                              "asynchronously reported at some other API call");
    QCOMPARE(kindOf(runtime), QStringLiteral("cuda-out-of-memory"));
    QCOMPARE(QString::fromStdString(toString(runtime.format)), QStringLiteral("cuda-runtime-error"));
    QVERIFY(!runtime.triedToAllocate && !runtime.totalCapacity && !runtime.free && !runtime.allocated
            && !runtime.reserved);

    // A CUDA message wins over the launcher's kill that follows it; a truncated one keeps only what it shows.
    const OomReport both =
        parseOomMessage("CUDA out of memory. Tried to allocate 20.00 MiB\nexits with return code = -9");
    QCOMPARE(kindOf(both), QStringLiteral("cuda-out-of-memory"));
    QCOMPARE(orNone(both.triedToAllocate), 20 * MiB);
    QCOMPARE(orNone(both.totalCapacity), kNone);
    QCOMPARE(QString::fromStdString(toString(both.format)), QString());
}

// "Process <pid> has" entries: this process listed again under another pid is not another process; one of the same
// size that total − free has room for is.
void TestOomMessage::whichProcessesAreOthers_data()
{
    QTest::addColumn<QString>("processes"); // the text between "is free. " and "Of the allocated memory"
    QTest::addColumn<QString>("total");
    QTest::addColumn<QString>("free");
    QTest::addColumn<qint64>("others");
    const QString self = QStringLiteral("Including non-PyTorch memory, this process has 30.00 GiB memory in use. ");
    QTest::newRow("self listed again, another too")
        << "Process 100 has 30.01 GiB memory in use. Process 200 has 8.00 GiB memory in use. " + self << "40.00 GiB"
        << "2.00 GiB" << 8 * GiB;
    QTest::newRow("another of the same size, room for both")
        << "Process 200 has 30.00 GiB memory in use. " + self << "60.00 GiB"
        << "0 bytes" << 30 * GiB;
    QTest::newRow("only this process") << self << "40.00 GiB"
                                       << "10.00 GiB" << kNone;
    QTest::newRow("no this-process line, two entries: this one holds at least the 20.00 GiB reserved")
        << QStringLiteral("Process 100 has 4.00 GiB memory in use. Process 200 has 21.00 GiB memory in use. ")
        << "40.00 GiB"
        << "15.00 GiB" << 4 * GiB;
}

void TestOomMessage::whichProcessesAreOthers()
{
    QFETCH(QString, processes);
    QFETCH(QString, total);
    QFETCH(QString, free);
    QFETCH(qint64, others);
    const QString text = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                         "capacity of "
        + total + " of which " + free + " is free. " + processes
        + "Of the allocated memory 19.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by "
          "PyTorch but unallocated.";
    const OomReport r = parseOomMessage(text.toStdString());
    QCOMPARE(orNone(r.otherProcessesInUse), others);
}

void TestOomMessage::garbageAndHugeInput()
{
    // Deterministic pseudo-random bytes (all 256 values, NULs included): no crash, nothing invented.
    std::string noise(1 << 20, '\0');
    std::uint32_t x = 12345;
    for (char& c : noise) {
        x = x * 1103515245u + 12345u;
        c = static_cast<char>(x >> 16);
    }
    const OomReport r = parseOomMessage(noise);
    QVERIFY(r.truncated);
    QVERIFY(!r.triedToAllocate && !r.batchTrain);

    // Pathological repetitions of the phrases the scanner looks for finish and read nothing wrong.
    std::string repeated;
    while (repeated.size() < 200000)
        repeated +=
            "CUDA out of memory. Tried to allocate Process 1 has  is free is reserved by PyTorch but unallocated ";
    QCOMPARE(kindOf(parseOomMessage(repeated)), QStringLiteral("unrecognised"));
    QCOMPARE(kindOf(parseOomMessage(std::string(100000, '9') + " GiB")), QStringLiteral("unrecognised"));
    std::string labels = "CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 ";
    while (labels.size() < 70000)
        labels += " is free ";
    const OomReport many = parseOomMessage(labels);
    QCOMPARE(kindOf(many), QStringLiteral("cuda-out-of-memory"));
    QCOMPARE(orNone(many.triedToAllocate), GiB);
    QCOMPARE(orNone(many.free), kNone);
}

void TestOomMessage::capAt64KiB()
{
    const std::string message = readSample("old_format_v100_gpu1_runtimeerror.txt");
    const std::string filler(kMaxOomMessageBytes, 'x');
    const OomReport first = parseOomMessage(message + filler);
    QCOMPARE(kindOf(first), QStringLiteral("cuda-out-of-memory"));
    QVERIFY(first.truncated);
    const OomReport late = parseOomMessage(filler + message);
    QCOMPARE(kindOf(late), QStringLiteral("unrecognised")); // past the cap: not read
    QVERIFY(late.truncated);
    // Windows line ends and tabs read like spaces.
    std::string crlf =
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\r\n(GPU 1;\t15.78 GiB total capacity; "
        "14.56 GiB already allocated; 3.44 MiB free; 14.80 GiB reserved in total by PyTorch)\r\n";
    const OomReport windows = parseOomMessage(crlf);
    QCOMPARE(orNone(windows.reserved), 15891378995LL); // 14.80 × 2^30 = 15891378995.2 → 15891378995
    QCOMPARE(orNone(windows.totalCapacity), 16943645983LL);
}

QTEST_APPLESS_MAIN(TestOomMessage)
#include "TestOomMessage.moc"
