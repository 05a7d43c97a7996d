// The schema data (resources/knowledge/deepspeed-schema.json) and the queries the linter and the
// semantic diff make of it: defaults as DeepSpeed v0.19.5 has them, canonical spellings, "did you mean".
#include "knowledge/DeepSpeedSchema.h"
#include "knowledge/KnowledgeFiles.h"
#include "knowledge/SourceCatalog.h"

#include <QTest>

using namespace dsw;

class TestDeepSpeedSchema : public QObject {
    Q_OBJECT
private slots:
    void embeddedSchemaLoads()
    {
        const DeepSpeedSchema& s = DeepSpeedSchema::instance();
        QCOMPARE(QString::fromStdString(s.deepspeedVersion()), QString("0.19.5"));
        // The blocks deepspeed-facts §2.0 names as pydantic models with extra="forbid" ...
        for (const char* strict :
             {"zero_optimization", "zero_optimization.offload_param", "zero_optimization.offload_optimizer",
              "zero_optimization.leaf_module", "zero_optimization.zenflow", "fp16", "bf16", "compile",
              "tensor_parallel", "comms_logger", "tensorboard", "wandb", "csv_monitor", "hybrid_engine"}) {
            QVERIFY2(s.block(strict), strict);
            QVERIFY2(s.block(strict)->strictness == BlockStrictness::Forbid, strict);
        }
        // ... and the plain dicts that ignore unknown keys.
        for (const char* lenient : {"", "aio", "activation_checkpointing", "sparse_attention", "pipeline"}) {
            QVERIFY2(s.block(lenient), lenient);
            QVERIFY2(s.block(lenient)->strictness == BlockStrictness::Ignore, lenient);
        }
        // §2.6: every row of the DeepSpeedZeroConfig table is described (44 JSON keys; grad_hooks is extra).
        int fields = 0;
        for (const SchemaKey& k : s.block("zero_optimization")->keys)
            fields += k.rejected ? 0 : 1;
        QCOMPARE(fields, 44);
    }

    void defaults_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("expected"); // JSON text, or "none" for no default
        // deepspeed-facts §2.6 (zero), offload tables, §2.3 (fp16), §2.4 (bf16), §2.2, §2.7, §2.11.
        QTest::newRow("stage") << "/zero_optimization/stage"
                               << "0";
        QTest::newRow("prefetch is 5e7, not the docs' 5e8") << "/zero_optimization/stage3_prefetch_bucket_size"
                                                            << "50000000";
        QTest::newRow("prefetch by field name") << "/zero_optimization/prefetch_bucket_size"
                                                << "50000000";
        QTest::newRow("persistence threshold") << "/zero_optimization/stage3_param_persistence_threshold"
                                               << "100000";
        QTest::newRow("model persistence sys.maxsize") << "/zero_optimization/stage3_model_persistence_threshold"
                                                       << "9223372036854775807";
        QTest::newRow("overlap_comm is stage-dependent") << "/zero_optimization/overlap_comm"
                                                         << "null";
        QTest::newRow("sub_group_size") << "/zero_optimization/sub_group_size"
                                        << "1000000000";
        QTest::newRow("param buffer_count") << "/zero_optimization/offload_param/buffer_count"
                                            << "5";
        QTest::newRow("optimizer buffer_count") << "/zero_optimization/offload_optimizer/buffer_count"
                                                << "4";
        QTest::newRow("pin_memory since 0.19.5") << "/zero_optimization/offload_optimizer/pin_memory"
                                                 << "true";
        QTest::newRow("offload device") << "/zero_optimization/offload_param/device"
                                        << "\"none\"";
        QTest::newRow("gradient_clipping since 0.19.3") << "/gradient_clipping"
                                                        << "1.0";
        QTest::newRow("initial_scale_power") << "/fp16/initial_scale_power"
                                             << "16";
        QTest::newRow("check_grad_overflow") << "/bf16/check_grad_overflow"
                                             << "true";
        QTest::newRow("via legacy bfloat16") << "/bfloat16/immediate_grad_update"
                                             << "false";
        QTest::newRow("aio queue_depth") << "/aio/queue_depth"
                                         << "8";
        QTest::newRow("sparse block") << "/sparse_attention/block"
                                      << "16";
        QTest::newRow("batch has no default") << "/train_batch_size"
                                              << "null";
        QTest::newRow("unknown key") << "/zero_optimization/stage3_prefetch_bucket"
                                     << "none";
        QTest::newRow("free-form params") << "/optimizer/params/lr"
                                          << "none";
        QTest::newRow("whole config") << ""
                                      << "none";
    }
    void defaults()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, expected);
        const auto v = DeepSpeedSchema::instance().defaultValue(pointer.toStdString());
        if (expected == "none") {
            QVERIFY(!v);
            return;
        }
        QVERIFY(v);
        QVERIFY2(*v == nlohmann::json::parse(expected.toStdString()), v->dump().c_str());
    }

    void canonicalKeys_data()
    {
        QTest::addColumn<QString>("block");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("field name to stage3_ alias") << "zero_optimization"
                                                     << "max_live_parameters"
                                                     << "stage3_max_live_parameters";
        QTest::newRow("16-bit save") << "zero_optimization"
                                     << "gather_16bit_weights_on_model_save"
                                     << "stage3_gather_16bit_weights_on_model_save";
        QTest::newRow("alias stays") << "zero_optimization"
                                     << "stage3_max_live_parameters"
                                     << "stage3_max_live_parameters";
        QTest::newRow("bfloat16 is bf16") << ""
                                          << "bfloat16"
                                          << "bf16";
        QTest::newRow("plain key") << "zero_optimization"
                                   << "stage"
                                   << "stage";
        QTest::newRow("unknown unchanged") << "zero_optimization"
                                           << "whatever"
                                           << "whatever";
        QTest::newRow("tensor parallel alias") << "tensor_parallel"
                                               << "replace_with_kernel_inject"
                                               << "kernel_inject";
    }
    void canonicalKeys()
    {
        QFETCH(QString, block);
        QFETCH(QString, key);
        QFETCH(QString, canonical);
        QCOMPARE(
            QString::fromStdString(DeepSpeedSchema::instance().canonicalKey(block.toStdString(), key.toStdString())),
            canonical);
    }

    void nearestKeys_data()
    {
        QTest::addColumn<QString>("block");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("nearest"); // "" = no suggestion
        QTest::newRow("digit for letter") << ""
                                          << "gradient_clipp1ng"
                                          << "gradient_clipping";
        QTest::newRow("prefix") << "zero_optimization"
                                << "stage3_prefetch_bucket"
                                << "stage3_prefetch_bucket_size";
        QTest::newRow("missing underscore") << "zero_optimization"
                                            << "overlapcomm"
                                            << "overlap_comm";
        QTest::newRow("swapped letters") << "fp16"
                                         << "enalbed"
                                         << "enabled";
        QTest::newRow("field name typo suggests the alias") << "zero_optimization"
                                                            << "prefetch_bucket_sise"
                                                            << "stage3_prefetch_bucket_size";
        QTest::newRow("nothing close") << ""
                                       << "log"
                                       << "";
        QTest::newRow("not a renamed-away key") << "aio"
                                                << "thread_counts"
                                                << "";
    }
    void nearestKeys()
    {
        QFETCH(QString, block);
        QFETCH(QString, key);
        QFETCH(QString, nearest);
        const auto got = DeepSpeedSchema::instance().nearestKey(block.toStdString(), key.toStdString());
        QCOMPARE(QString::fromStdString(got.value_or("")), nearest);
    }

    void editDistances()
    {
        QCOMPARE(editDistance("gradient_clipp1ng", "gradient_clipping"), size_t(1));
        QCOMPARE(editDistance("ab", "ba"), size_t(1)); // one adjacent swap
        QCOMPARE(editDistance("", "abc"), size_t(3));
        QCOMPARE(editDistance("kitten", "sitting"), size_t(3));
    }

    void locateFollowsBlocks()
    {
        const auto& s = DeepSpeedSchema::instance();
        QVERIFY((s.locate("/bfloat16/enabled") == std::make_pair(std::string("bf16"), std::string("enabled"))));
        QVERIFY((s.locate("/zero_optimization/offload_param/device")
                 == std::make_pair(std::string("zero_optimization.offload_param"), std::string("device"))));
        QVERIFY((s.locate("/a~1b") == std::make_pair(std::string(""), std::string("a/b"))));
        QVERIFY(!s.locate("/gradient_clipping/x"));
    }

    void autoFilledPerLauncher()
    {
        const auto& s = DeepSpeedSchema::instance();
        QVERIFY(s.launcherFillsAuto("/train_batch_size", "hf-trainer"));
        QVERIFY(s.launcherFillsAuto("/train_batch_size", "accelerate"));
        QVERIFY(!s.launcherFillsAuto("/train_batch_size", "deepspeed"));
        QVERIFY(!s.launcherFillsAuto("/zero_optimization/sub_group_size", "hf-trainer"));
        QVERIFY(s.launcherFillsAuto("/zero_optimization/stage3_gather_16bit_weights_on_model_save", "accelerate"));
        // The Trainer's TrainingArguments builds Accelerate's DeepSpeedPlugin, which fills the ZeRO keys too.
        QVERIFY(s.launcherFillsAuto("/zero_optimization/stage3_gather_16bit_weights_on_model_save", "hf-trainer"));
        // Accelerate has no kwarg for the Adam betas and eps (only the Trainer fills them).
        QVERIFY(s.launcherFillsAuto("/optimizer/params/betas", "hf-trainer"));
        QVERIFY(!s.launcherFillsAuto("/optimizer/params/betas", "accelerate"));
        QVERIFY(!s.launcherFillsAuto("/optimizer/params/eps", "accelerate"));
    }

    void malformedSchemaIsRefused()
    {
        QVERIFY(DeepSpeedSchema::fromJson(std::string(knowledgeFile("deepspeed-schema.json"))).ok()); // the shipped one
        QVERIFY(!DeepSpeedSchema::fromJson("not json").ok());
        const auto r = DeepSpeedSchema::fromJson(
            R"({"blocks": [{"path": "", "strictness": "ignore", "keys": {"x": {"type": "object", "block": "x"}}}]})");
        QVERIFY(!r.ok());
        QVERIFY(r.error().find("undescribed block") != std::string::npos);
        QVERIFY(!DeepSpeedSchema::fromJson(R"({"blocks": [{"path": "", "strictness": "loose", "keys": {}}]})").ok());
        QVERIFY(!DeepSpeedSchema::fromJson(
                     R"({"blocks": [{"path": "", "strictness": "ignore", "keys": {"a": {"type": "float"}}}]})")
                     .ok());
        QVERIFY(DeepSpeedSchema::fromJson(R"({"blocks": [{"path": "", "strictness": "ignore", "keys": {}}]})").ok());
    }

    // Broken copies of the shipped file: refused with one message naming the file and what is wrong.
    void brokenCopiesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        using json = nlohmann::json;
        const std::string good(knowledgeFile("deepspeed-schema.json"));
        QTest::newRow("not JSON") << QByteArray::fromStdString(good.substr(0, good.size() / 2)) << "parse error";
        QTest::newRow("empty file") << QByteArray() << "parse error";

        json unknownType = json::parse(good);
        unknownType["blocks"][0]["keys"]["train_batch_size"]["type"] = "integer";
        QTest::newRow("unknown type") << QByteArray::fromStdString(unknownType.dump())
                                      << "key train_batch_size: unknown type \"integer\"";

        json strictness = json::parse(good);
        strictness["blocks"][1]["strictness"] = "loose";
        QTest::newRow("unknown strictness")
            << QByteArray::fromStdString(strictness.dump()) << "unknown strictness \"loose\"";

        json undescribed = json::parse(good);
        undescribed["blocks"][0]["keys"]["train_batch_size"]["block"] = "no_such_block";
        QTest::newRow("undescribed block") << QByteArray::fromStdString(undescribed.dump())
                                           << ".train_batch_size opens the undescribed block \"no_such_block\"";

        json noTop = json::parse(good);
        noTop["blocks"].erase(0);
        for (json& b : noTop["blocks"]) // keep only the "no top-level block" fault
            for (auto& [name, key] : b["keys"].items())
                key.erase("block");
        QTest::newRow("no top-level block") << QByteArray::fromStdString(noTop.dump()) << "no top-level block";
    }
    void brokenCopiesAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        const auto r = DeepSpeedSchema::fromJson(text.toStdString());
        QVERIFY(!r.ok());
        const QString error = QString::fromStdString(r.error());
        QVERIFY2(error.startsWith("deepspeed-schema.json: ") && error.contains(says), qPrintable(error));
    }

    void everySourceIsCatalogued()
    {
        const auto& s = DeepSpeedSchema::instance();
        std::vector<std::string> ids;
        for (const SchemaBlock& b : s.blocks()) {
            ids.push_back(b.source);
            for (const SchemaKey& k : b.keys) {
                ids.push_back(k.source);
                if (k.deprecated)
                    ids.push_back(k.deprecated->source);
                for (const auto& c : k.changes)
                    ids.push_back(c.source);
            }
        }
        ids.push_back(s.launcherAutoSource("/train_batch_size", "hf-trainer"));
        ids.push_back(s.launcherAutoSource("/zero_optimization/stage", "accelerate"));
        std::string missing;
        for (const std::string& id : ids)
            if (!id.empty() && !SourceCatalog::instance().find(id) && missing.find(id) == std::string::npos)
                missing += " " + id;
        QVERIFY2(missing.empty(), ("not in resources/knowledge/sources.tsv:" + missing).c_str());
    }
};

QTEST_APPLESS_MAIN(TestDeepSpeedSchema)
#include "TestDeepSpeedSchema.moc"
