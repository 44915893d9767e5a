// Parameter counts (docs/MODEL.md section 1) against the published formulas and published exact counts:
// - Megatron's GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) (Narayanan et al., "Efficient Large-Scale
//   Language Model Training on GPU Clusters Using Megatron-LM", SC21, eq. 2, and its Table 1 sizes);
// - the per-part formula of docs/MODEL.md section 1 for GQA / SwiGLU / RMSNorm / untied / MoE models, checked against the
//   exact counts Hugging Face reports for the released checkpoints (quoted in the rows).
// Expected values are computed here from those formulas, not read from core/cost/Parameters.cpp.
#include "TestUtil.h"

#include "cost/Parameters.h"
#include "spec/Presets.h"

#include <QObject>

using namespace planscope;
using planscope::test::near;

namespace {

// A GPT-2/3 style model: f = 4h, LayerNorm with biases, biases on every linear layer, learned positions,
// tied input/output embeddings, MHA.
ModelSpec gptModel(int layers, std::int64_t hidden, int heads, std::int64_t vocab, std::int64_t seq)
{
    ModelSpec m;
    m.name = "gpt";
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = heads;
    m.ffnHidden = 4 * hidden;
    m.vocab = vocab;
    m.seqLength = seq;
    m.gatedMlp = false;
    m.tiedEmbeddings = true;
    m.positionEmbedding = PositionEmbedding::Learned;
    m.norm = NormKind::LayerNorm;
    m.bias = true;
    m.embeddingNorm = false;
    m.dropout = true;
    return m;
}

// Megatron eq. 2 (Narayanan et al. SC21): N = 12*L*h^2 * (1 + 13/(12h) + (V+s)/(12*L*h))
//                                           = 12*L*h^2 + 13*L*h + (V+s)*h.
// It counts per layer QKV 3h^2+3h, proj h^2+h, fc1 4h^2+4h, fc2 4h^2+h, two LayerNorms 4h; the word and
// position embeddings; and not the final LayerNorm (2h).
double megatronEq2(double L, double h, double V, double s)
{
    return 12 * L * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * L * h));
}

// docs/MODEL.md section 1 written out for a LLaMA/Mistral-style model (RMSNorm, no biases, untied, rope):
// per layer attention h*(h + 2*h*kv/a) + h*h, MLP 3*h*f (gated) or 2*h*f, two RMSNorms 2h;
// MoE layer: E routed experts of 3*h*f_e each, router h*E; embedding V*h, output V*h, final RMSNorm h.
struct LlamaShape {
    double L, h, a, kv, f, V;
    double experts = 0, topK = 0, fExpert = 0;
};
double llamaPerLayer(const LlamaShape& m, bool activeOnly)
{
    const double attention = m.h * (m.h + 2 * m.h * m.kv / m.a) + m.h * m.h;
    const double norms = 2 * m.h;
    if (m.experts == 0) return attention + 3 * m.h * m.f + norms;
    const double router = m.h * m.experts;
    const double experts = (activeOnly ? m.topK : m.experts) * 3 * m.h * m.fExpert;
    return attention + router + experts + norms;
}
double llamaTotal(const LlamaShape& m, bool activeOnly)
{
    return m.L * llamaPerLayer(m, activeOnly) + 2 * m.V * m.h + m.h;
}

} // namespace

class TestParameters : public QObject {
    Q_OBJECT
private slots:
    // GPT-style models: countParameters() = Megatron eq. 2 + the final LayerNorm (2h), exactly.
    void megatronGpt_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<int>("heads");
        QTest::addColumn<qint64>("vocab");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<double>("tableBillions"); // Narayanan et al. Table 1 "Number of parameters (billion)"; 0 = none
        // Table 1 rows (V = 51200, s = 2048).
        QTest::newRow("table1 1.7B") << 24 << qint64(2304) << 24 << qint64(51200) << qint64(2048) << 1.7;
        QTest::newRow("table1 3.6B") << 30 << qint64(3072) << 32 << qint64(51200) << qint64(2048) << 3.6;
        QTest::newRow("table1 7.5B") << 36 << qint64(4096) << 32 << qint64(51200) << qint64(2048) << 7.5;
        QTest::newRow("table1 145.6B") << 80 << qint64(12288) << 96 << qint64(51200) << qint64(2048) << 145.6;
        QTest::newRow("table1 529.6B") << 105 << qint64(20480) << 128 << qint64(51200) << qint64(2048) << 529.6;
        QTest::newRow("table1 1008B") << 128 << qint64(25600) << 160 << qint64(51200) << qint64(2048) << 1008.0;
        // GPT-3 175B (Brown et al. Table 2.1 shape, Megatron's padded vocab 51200): eq. 2 gives 174.6B.
        QTest::newRow("gpt3 175B") << 96 << qint64(12288) << 96 << qint64(51200) << qint64(2048) << 0.0;
        // GPT-3 XL 1.3B shape (24 x 2048).
        QTest::newRow("gpt3 XL 1.3B") << 24 << qint64(2048) << 16 << qint64(51200) << qint64(2048) << 0.0;
        // A tiny one, where the 13h and (V+s)h terms matter.
        QTest::newRow("tiny") << 2 << qint64(64) << 4 << qint64(100) << qint64(32) << 0.0;
    }
    void megatronGpt()
    {
        QFETCH(int, layers);
        QFETCH(qint64, hidden);
        QFETCH(int, heads);
        QFETCH(qint64, vocab);
        QFETCH(qint64, seq);
        QFETCH(double, tableBillions);
        const double L = layers, h = double(hidden), V = double(vocab), s = double(seq);

        const ParameterCounts c = countParameters(gptModel(layers, hidden, heads, vocab, seq));
        const double eq2 = megatronEq2(L, h, V, s);
        const double expected = eq2 + 2 * h; // plus the final LayerNorm, which eq. 2 leaves out
        QVERIFY2(near(c.total, expected, 1e-12),
            qPrintable(QStringLiteral("total %1, eq.2 + 2h = %2 (diff %3)")
                           .arg(c.total, 0, 'f', 0).arg(expected, 0, 'f', 0).arg(c.total - expected, 0, 'f', 0)));
        // Dense model: everything is active.
        QVERIFY(near(c.active, c.total, 1e-12));
        // Per-layer split (Parameters.h): 12h^2 + 13h.
        QVERIFY(near(c.layer.total(), 12 * h * h + 13 * h, 1e-12));
        QVERIFY(near(c.layer.attentionMatrices, 4 * h * h, 1e-12)); // Q,K,V,O with a_kv = a
        QVERIFY(near(c.layer.mlpMatrices, 8 * h * h, 1e-12));       // 2*h*4h
        QVERIFY(near(c.layer.columnBiases, 3 * h + 4 * h, 1e-12));  // QKV bias 3h, fc1 bias 4h
        QVERIFY(near(c.layer.rowBiases, h + h, 1e-12));             // proj bias h, fc2 bias h
        QVERIFY(near(c.layer.norms, 4 * h, 1e-12));                 // two LayerNorms, weight + bias
        QVERIFY(near(c.layersTotal, L * (12 * h * h + 13 * h), 1e-12));
        QVERIFY(near(c.embedding, V * h, 1e-12));
        QVERIFY(near(c.positions, s * h, 1e-12));
        QCOMPARE(c.outputLayer, 0.0); // tied
        QVERIFY(near(c.finalNorm, 2 * h, 1e-12));
        // FLOP-bearing matrices one token multiplies with: 12h^2 per layer plus the V*h output projection
        // (Megatron eq. 3's 72*L*h^2 and 6*V*h terms divided by 6).
        QVERIFY(near(c.matmulActivePerToken, L * 12 * h * h + V * h, 1e-12));
        if (tableBillions > 0) {
            // Table 1 prints eq. 2 rounded to 0.1B.
            QVERIFY2(std::abs(eq2 / 1e9 - tableBillions) <= 0.05 + 1e-9, qPrintable(QString::number(eq2 / 1e9)));
            QVERIFY2(std::abs(c.total / 1e9 - tableBillions) <= 0.05 + 1e-9, qPrintable(QString::number(c.total / 1e9)));
        }
    }

    // LLaMA-family and Mixtral shapes built by hand: GQA, SwiGLU, RMSNorm, no biases, untied, rope.
    void llamaStyle_data()
    {
        QTest::addColumn<double>("L");
        QTest::addColumn<double>("h");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("kv");
        QTest::addColumn<double>("f");
        QTest::addColumn<double>("V");
        QTest::addColumn<double>("experts");
        QTest::addColumn<double>("topK");
        QTest::addColumn<double>("publishedTotal"); // the exact count of the released checkpoint (HF)
        // Llama-2 70B: per layer h*(h + 2*h*8/64) + h*h + 3*h*f + 2h = 855,654,400; total 68,976,648,192.
        QTest::newRow("llama2-70b GQA") << 80.0 << 8192.0 << 64.0 << 8.0 << 28672.0 << 32000.0 << 0.0 << 0.0
                                        << 68976648192.0;
        // Llama-2 7B (MHA): 6,738,415,616 (meta-llama/Llama-2-7b-hf).
        QTest::newRow("llama2-7b MHA") << 32.0 << 4096.0 << 32.0 << 32.0 << 11008.0 << 32000.0 << 0.0 << 0.0
                                       << 6738415616.0;
        // Llama-3 8B: 8,030,261,248 (meta-llama/Meta-Llama-3-8B).
        QTest::newRow("llama3-8b GQA") << 32.0 << 4096.0 << 32.0 << 8.0 << 14336.0 << 128256.0 << 0.0 << 0.0
                                       << 8030261248.0;
        // Llama-3 70B: 70,553,706,496.
        QTest::newRow("llama3-70b GQA") << 80.0 << 8192.0 << 64.0 << 8.0 << 28672.0 << 128256.0 << 0.0 << 0.0
                                        << 70553706496.0;
        // Llama-3.1 405B: 405,853,388,800.
        QTest::newRow("llama3.1-405b GQA") << 126.0 << 16384.0 << 128.0 << 8.0 << 53248.0 << 128256.0 << 0.0 << 0.0
                                           << 405853388800.0;
        // Mixtral 8x7B: 8 experts of f_e = 14336, top-2; total 46,702,792,704 (mistralai/Mixtral-8x7B-v0.1).
        QTest::newRow("mixtral-8x7b MoE") << 32.0 << 4096.0 << 32.0 << 8.0 << 14336.0 << 32000.0 << 8.0 << 2.0
                                          << 46702792704.0;
    }
    void llamaStyle()
    {
        QFETCH(double, L);
        QFETCH(double, h);
        QFETCH(double, a);
        QFETCH(double, kv);
        QFETCH(double, f);
        QFETCH(double, V);
        QFETCH(double, experts);
        QFETCH(double, topK);
        QFETCH(double, publishedTotal);

        ModelSpec m;
        m.name = "llama-style";
        m.layers = int(L);
        m.hidden = std::int64_t(h);
        m.heads = int(a);
        m.kvHeads = int(kv);
        m.ffnHidden = std::int64_t(f);
        m.vocab = std::int64_t(V);
        m.seqLength = 4096;
        m.gatedMlp = true;
        m.tiedEmbeddings = false;
        m.positionEmbedding = PositionEmbedding::Rope;
        m.norm = NormKind::RMSNorm;
        m.bias = false;
        m.dropout = false;
        LlamaShape shape { L, h, a, kv, f, V };
        if (experts > 0) {
            m.moe.experts = int(experts);
            m.moe.topK = int(topK);
            m.moe.expertFfnHidden = std::int64_t(f);
            m.ffnHidden = std::int64_t(f);
            shape.experts = experts;
            shape.topK = topK;
            shape.fExpert = f;
        }
        const double expectedTotal = llamaTotal(shape, false);
        // The formula reproduces the checkpoint's exact count (a check of this test's own arithmetic).
        QCOMPARE(expectedTotal, publishedTotal);

        const ParameterCounts c = countParameters(m);
        QVERIFY2(near(c.total, expectedTotal, 1e-12),
            qPrintable(QStringLiteral("total %1 expected %2 (diff %3)")
                           .arg(c.total, 0, 'f', 0).arg(expectedTotal, 0, 'f', 0).arg(c.total - expectedTotal, 0, 'f', 0)));
        QVERIFY(near(c.layer.total(), llamaPerLayer(shape, false), 1e-12));
        QVERIFY(near(c.layer.attentionMatrices, h * (h + 2 * h * kv / a) + h * h, 1e-12));
        QCOMPARE(c.positions, 0.0);
        QVERIFY(near(c.outputLayer, V * h, 1e-12));
        QVERIFY(near(c.finalNorm, h, 1e-12));

        // Active (top-k) parameters: total minus the (E - k) routed experts a token skips in every layer.
        // Mixtral: 46,702,792,704 - 32*6*3*4096*14336 = 12,879,925,248 (the often-quoted "12.9B active").
        const double expectedActive = expectedTotal - L * (experts - topK) * 3 * h * f;
        QCOMPARE(expectedActive, llamaTotal(shape, true));
        QVERIFY2(near(c.active, expectedActive, 1e-12),
            qPrintable(QStringLiteral("active %1 expected %2 (diff %3)")
                           .arg(c.active, 0, 'f', 0).arg(expectedActive, 0, 'f', 0).arg(c.active - expectedActive, 0, 'f', 0)));
        if (experts > 0) {
            QVERIFY(near(c.layer.router, h * experts, 1e-12));
            QVERIFY(near(c.layer.routedExperts, experts * 3 * h * f, 1e-12));
            QVERIFY(near(c.layer.activeExperts, topK * 3 * h * f, 1e-12));
            QCOMPARE(c.layer.mlpMatrices, 0.0); // no shared experts
        }
    }

    // The built-in presets count the same as the formulas above.
    void presets_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("expectedTotal");
        QTest::addColumn<double>("expectedActive");
        const double L = 96, h = 12288, V = 51200, s = 2048;
        const double gpt3 = megatronEq2(L, h, V, s) + 2 * h;
        QTest::newRow("gpt3-175b") << "gpt3-175b" << gpt3 << gpt3;
        QTest::newRow("llama2-70b") << "llama2-70b" << 68976648192.0 << 68976648192.0;
        QTest::newRow("llama2-7b") << "llama2-7b" << 6738415616.0 << 6738415616.0;
        QTest::newRow("llama3-8b") << "llama3-8b" << 8030261248.0 << 8030261248.0;
        QTest::newRow("llama3-70b") << "llama3-70b" << 70553706496.0 << 70553706496.0;
        QTest::newRow("llama3-405b") << "llama3-405b" << 405853388800.0 << 405853388800.0;
        const LlamaShape mixtral { 32, 4096, 32, 8, 14336, 32000, 8, 2, 14336 };
        QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << llamaTotal(mixtral, false) << llamaTotal(mixtral, true);
        // BLOOM 176B: GPT layers (12h^2 + 13h), ALiBi (no positions), tied, embedding LayerNorm 2h + final 2h:
        // 70*(12*14336^2 + 13*14336) + 250880*14336 + 4*14336 = 176,247,271,424 (bigscience/bloom).
        const double hb = 14336;
        QTest::newRow("bloom-176b") << "bloom-176b" << 70 * (12 * hb * hb + 13 * hb) + 250880 * hb + 4 * hb
                                    << 176247271424.0;
    }
    void presets()
    {
        QFETCH(QString, preset);
        QFETCH(double, expectedTotal);
        QFETCH(double, expectedActive);
        const ModelPreset* p = PresetCatalog::builtin().model(preset.toStdString());
        QVERIFY2(p, qPrintable(preset));
        const ParameterCounts c = countParameters(p->spec);
        QVERIFY2(near(c.total, expectedTotal, 1e-12),
            qPrintable(QStringLiteral("%1: total %2 expected %3").arg(preset).arg(c.total, 0, 'f', 0).arg(expectedTotal, 0, 'f', 0)));
        QVERIFY2(near(c.active, expectedActive, 1e-12),
            qPrintable(QStringLiteral("%1: active %2 expected %3").arg(preset).arg(c.active, 0, 'f', 0).arg(expectedActive, 0, 'f', 0)));
        // And the preset's published figure agrees to within its rounding: these are names like "7B", "70B"
        // (Llama-2 "7B" is 6.74B, 3.7% short), so 5%.
        if (p->spec.paramsReported > 0)
            QVERIFY2(near(c.total, p->spec.paramsReported, 0.05),
                qPrintable(QStringLiteral("%1: %2 vs reported %3").arg(preset).arg(c.total).arg(p->spec.paramsReported)));
    }

    // Untying the embeddings adds exactly V*h; learned positions add s*h; tying removes the output layer.
    void embeddingVariants_data()
    {
        QTest::addColumn<bool>("tied");
        QTest::addColumn<int>("positions"); // PositionEmbedding as int
        QTest::addColumn<double>("extra");  // over the tied, rope model
        const double h = 1024, V = 50000, s = 2048;
        QTest::newRow("tied rope") << true << int(PositionEmbedding::Rope) << 0.0;
        QTest::newRow("untied rope") << false << int(PositionEmbedding::Rope) << V * h;
        QTest::newRow("tied learned") << true << int(PositionEmbedding::Learned) << s * h;
        QTest::newRow("untied learned") << false << int(PositionEmbedding::Learned) << V * h + s * h;
        QTest::newRow("tied alibi") << true << int(PositionEmbedding::Alibi) << 0.0;
    }
    void embeddingVariants()
    {
        QFETCH(bool, tied);
        QFETCH(int, positions);
        QFETCH(double, extra);
        ModelSpec base = gptModel(12, 1024, 16, 50000, 2048);
        base.positionEmbedding = PositionEmbedding::Rope;
        ModelSpec m = base;
        m.tiedEmbeddings = tied;
        m.positionEmbedding = PositionEmbedding(positions);
        const double diff = countParameters(m).total - countParameters(base).total;
        QVERIFY2(near(diff, extra, 1e-12), qPrintable(QString::number(diff)));
    }

    // docs/MODEL.md section 1: "h*(h + 2*h*a_kv/a) + h*h": GQA shrinks K and V only.
    void gqaAttention_data()
    {
        QTest::addColumn<int>("kv");
        for (int kv : { 32, 16, 8, 4, 1 }) QTest::newRow(qPrintable(QStringLiteral("kv=%1").arg(kv))) << kv;
    }
    void gqaAttention()
    {
        QFETCH(int, kv);
        ModelSpec m = gptModel(4, 4096, 32, 32000, 2048);
        m.kvHeads = kv;
        m.bias = false;
        const double h = 4096, a = 32;
        const ParameterCounts c = countParameters(m);
        QVERIFY(near(c.layer.attentionMatrices, h * (h + 2 * h * kv / a) + h * h, 1e-12));
        QVERIFY(near(c.layer.mlpMatrices, 2 * h * 4 * h, 1e-12));
    }
};

QTEST_APPLESS_MAIN(TestParameters)
#include "tst_parameters.moc"
