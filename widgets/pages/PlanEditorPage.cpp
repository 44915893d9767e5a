#include "pages/PlanEditorPage.h"
#include "CoreText.h"
#include "Format.h"
#include "WidgetExporter.h"

#include "charts/FieldScientificSpinBox.h"
#include "Palette.h"
#include "Theme.h"
#include "document/PlanDocument.h"
#include "charts/RealityCheckBox.h"
#include "cost/AutoBalance.h"
#include "cost/Operators.h"
#include "spec/FieldLimits.h"
#include "spec/ScheduleTraits.h"
#include "spec/SplitText.h"
#include "spec/Presets.h"
#include "spec/Validate.h"
#include "util/Units.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace planscope {

namespace {

QString fromStd(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The field's range from core's table (core/spec/FieldLimits.cpp), the plan reader's own; a spin box holds
// an int.
void setLimits(QSpinBox* spin, const QString& path)
{
    const FieldLimit& f = fieldLimit(path.toStdString());
    spin->setRange(int(f.min), int(std::min(f.max, double(std::numeric_limits<int>::max()))));
}

// Amber for warnings, dark enough to read as text on a light background.
QColor warningColor()
{
    return Theme::pick(QColor(0x9A, 0x67, 0x00), QColor(0xE6, 0xB0, 0x40));
}

QColor validColor()
{
    return Theme::pick(QColor(0x00, 0x7A, 0x58), QColor(0x3F, 0xC7, 0x9A));
}

void setTextColor(QWidget* w, const QColor& color)
{
    QPalette p = w->palette();
    p.setColor(QPalette::WindowText, color);
    w->setPalette(p);
}

// One undo step: the whole plan before and after an edit of one field. Consecutive edits of the same
// field (typing "128" into a spin box) merge into one step.
class PlanEditCommand : public QUndoCommand {
public:
    PlanEditCommand(
        std::function<void(const Plan&)> apply, int field, Plan before, Plan after, const QString& text)
        : QUndoCommand(text)
        , m_apply(std::move(apply))
        , m_field(field)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
    }

    // Typed values (spin boxes, text) merge; a choice or a check box is one step each (-1: never merged).
    void setMergeable(bool mergeable) { m_mergeable = mergeable; }
    int id() const override { return m_mergeable ? m_field : -1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        if (other->id() != id()) return false;
        m_after = static_cast<const PlanEditCommand*>(other)->m_after;
        setText(other->text()); // names the value typed last
        // Typed back to where it was: the step disappears from the stack.
        setObsolete(m_after == m_before);
        return true;
    }
    void undo() override { m_apply(m_before); }
    void redo() override { m_apply(m_after); }

private:
    std::function<void(const Plan&)> m_apply;
    int m_field;
    bool m_mergeable = true;
    Plan m_before;
    Plan m_after;
};

// The preset whose shape this model has, if any (name and published parameter count aside).
std::string matchingPreset(const ModelSpec& model)
{
    auto shape = [](ModelSpec m) {
        m.preset.clear();
        m.name.clear();
        m.paramsReported = 0;
        return m;
    };
    const ModelSpec mine = shape(model);
    const auto& presets = PresetCatalog::builtin().models();
    // The current preset first, so that two presets of one shape keep the one chosen.
    for (const ModelPreset& p : presets)
        if (p.spec.preset == model.preset && shape(p.spec) == mine) return p.spec.preset;
    for (const ModelPreset& p : presets)
        if (shape(p.spec) == mine) return p.spec.preset;
    return {};
}

QStringList precisionNames()
{
    QStringList names;
    for (Precision p : { Precision::FP32, Precision::FP16, Precision::BF16, Precision::FP8 })
        names << fromStd(toString(p));
    return names;
}

// Long preset names stay readable in the drop-down without widening the whole column.
void compact(QComboBox* combo)
{
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(14);
}

template <typename Enum> std::string nameOf(Enum e)
{
    return std::string(toString(e));
}

template <typename Enum> void parseInto(const std::string& text, Enum& e)
{
    Enum parsed;
    if (fromString(text, parsed)) e = parsed;
}

} // namespace

PlanEditorPage::PlanEditorPage(QWidget* parent)
    : QWidget(parent)
    , m_undoStack(new QUndoStack(this))
{
    m_summary = new QLabel(this);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    m_predictionLine = new QLabel(this);
    m_predictionLine->setWordWrap(true);
    m_predictionLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_otherIssues = new QLabel(this);
    m_otherIssues->setWordWrap(true);
    m_otherIssues->setTextFormat(Qt::RichText);
    m_otherIssues->hide();

    m_content = new QWidget;
    m_columns = new QHBoxLayout(m_content);

    Section* model = addSection(QT_TR_NOOP("Model"));
    buildModel(*model);
    Section* mla = addSection(QT_TR_NOOP("Multi-head latent attention (MLA)"));
    buildMla(*mla);
    Section* moe = addSection(QT_TR_NOOP("Mixture of experts (MoE)"));
    buildMoe(*moe);
    Section* cluster = addSection(QT_TR_NOOP("Cluster"));
    buildCluster(*cluster);
    Section* parallel = addSection(QT_TR_NOOP("Parallelism"));
    buildParallel(*parallel);
    Section* training = addSection(QT_TR_NOOP("Training"));
    buildTraining(*training);
    // The CPU that issues the kernels, as a subsection of training (docs/MODEL.md section 7.4).
    Section* host = addSection(QT_TR_NOOP("Host (kernel issue)"));
    buildHost(*host);
    training->grid->addWidget(host->box, training->row++, 0, 1, 2);
    Section* offload = addSection(QT_TR_NOOP("Host offload"));
    buildOffload(*offload);

    m_realityBox = new QGroupBox(m_content);
    auto* realityLayout = new QVBoxLayout(m_realityBox);
    m_realityCheck = new RealityCheckBox(m_realityBox);
    realityLayout->addWidget(m_realityCheck);

    // Three columns when the window is wide, fewer when it is not (arrangeColumns()).
    m_boxes = { model->box, mla->box, moe->box, cluster->box, parallel->box, training->box, offload->box, m_realityBox };
    arrangeColumns(3);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_content);
    // Never narrower than one column of fields: a narrow window shrinks the views beside the dock instead of
    // hiding the fields behind a horizontal scroll bar. Long choices (GPU names) shrink to a short width and show
    // the rest in their list.
    for (QComboBox* combo : m_content->findChildren<QComboBox*>()) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(14);
    }
    // A label and a field side by side stay readable from about 34 average characters of each.
    scroll->setMinimumWidth(fontMetrics().averageCharWidth() * 60 + scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent));

    auto* header = new QVBoxLayout;
    header->setContentsMargins(8, 6, 8, 0);
    header->addWidget(m_summary);
    header->addWidget(m_predictionLine);
    header->addWidget(m_otherIssues);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(scroll, 1);

    m_errorTexts.resize(m_fields.size());
    connect(Theme::instance(), &Theme::changed, this, [this] {
        for (QWidget* w : { static_cast<QWidget*>(m_gpuInfo), static_cast<QWidget*>(m_dpFormula),
                 static_cast<QWidget*>(m_microbatchInfo) })
            if (w) setTextColor(w, Theme::ink());
        showIssues();
        showPrediction();
    });
    // The wheel scrolls the form: a spin box or combo box changes only once clicked or tabbed into, so that
    // scrolling past a field never edits the plan.
    for (QAbstractSpinBox* box : findChildren<QAbstractSpinBox*>()) {
        box->setFocusPolicy(Qt::StrongFocus);
        box->installEventFilter(this);
    }
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setFocusPolicy(Qt::StrongFocus);
        box->installEventFilter(this);
    }
    retranslate();
}

PlanEditorPage::~PlanEditorPage() = default;

bool PlanEditorPage::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Wheel) {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (widget && !widget->hasFocus()) {
            // Not accepted: Qt hands the wheel on to the parents, up to the scroll area.
            event->ignore();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

// --- building -------------------------------------------------------------------------------------------

PlanEditorPage::Section* PlanEditorPage::addSection(const char* title)
{
    auto* s = m_sections.emplace_back(std::make_unique<Section>()).get();
    s->title = title;
    s->box = new QGroupBox(m_content);
    s->grid = new QGridLayout(s->box);
    s->grid->setColumnStretch(1, 1);
    s->grid->setHorizontalSpacing(12);
    return s;
}

int PlanEditorPage::addRow(Section& section, const QString& path, const char* text, const char* tip,
    QWidget* editor, QWidget* rowWidget)
{
    Field f;
    f.path = path;
    f.editor = editor;
    f.text = text;
    f.tip = tip;
    QWidget* shown = rowWidget ? rowWidget : editor;
    const bool selfLabelled = qobject_cast<QCheckBox*>(editor) != nullptr;
    if (shown) {
        if (!selfLabelled && text) {
            f.label = new QLabel(section.box);
            f.label->setBuddy(editor);
            section.grid->addWidget(f.label, section.row, 0, Qt::AlignLeft | Qt::AlignVCenter);
        }
        section.grid->addWidget(shown, section.row, 1);
        ++section.row;
    }
    f.error = new QLabel(section.box);
    f.error->setWordWrap(true);
    f.error->setTextFormat(Qt::RichText);
    f.error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    f.error->setObjectName(QStringLiteral("error:") + path);
    QFont small = f.error->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    f.error->setFont(small);
    f.error->hide();
    // A group's own line spans the whole box; a field's sits under the field.
    if (shown)
        section.grid->addWidget(f.error, section.row, 1);
    else
        section.grid->addWidget(f.error, section.row, 0, 1, 2);
    ++section.row;
    m_fields.push_back(std::move(f));
    return int(m_fields.size()) - 1;
}

QSpinBox* PlanEditorPage::addInt(Section& section, const QString& path, const char* text, const char* tip)
{
    const FieldLimit& field = fieldLimit(path.toStdString());
    const auto get = field.get;
    const auto set = field.set;
    auto* spin = new QSpinBox(section.box);
    setLimits(spin, path);
    spin->setAccelerated(true);
    spin->setGroupSeparatorShown(false);
    const int index = addRow(section, path, text, tip, spin);
    m_fields[size_t(index)].show = [this, spin, get] {
        const auto v = int(std::clamp<std::int64_t>(get(m_plan), spin->minimum(), spin->maximum()));
        if (spin->value() != v) spin->setValue(v);
    };
    connect(spin, &QSpinBox::valueChanged, this,
        [this, index, set](int v) { edit(index, [&](Plan& p) { set(p, v); }); });
    return spin;
}

QDoubleSpinBox* PlanEditorPage::addScaled(Section& section, const QString& path, const char* text,
    const char* tip, double scale, int decimals, double maximum, std::function<double(const Plan&)> get,
    std::function<void(Plan&, double)> set)
{
    auto* spin = new QDoubleSpinBox(section.box);
    spin->setRange(0, maximum);
    spin->setDecimals(decimals);
    spin->setAccelerated(true);
    const int index = addRow(section, path, text, tip, spin);
    // Shown in display units (GB/s, µs); the plan keeps bytes/s and seconds.
    m_fields[size_t(index)].show = [this, spin, get, scale, decimals] {
        const double v = get(m_plan) / scale;
        if (std::abs(spin->value() - v) > 0.5 * std::pow(10.0, -decimals)) spin->setValue(v);
    };
    connect(spin, &QDoubleSpinBox::valueChanged, this,
        [this, index, set, scale](double v) { edit(index, [&](Plan& p) { set(p, v * scale); }); });
    return spin;
}

QCheckBox* PlanEditorPage::addCheck(Section& section, const QString& path, const char* text, const char* tip,
    std::function<bool(const Plan&)> get, std::function<void(Plan&, bool)> set)
{
    auto* check = new QCheckBox(section.box);
    const int index = addRow(section, path, text, tip, check);
    m_fields[size_t(index)].show = [this, check, get] {
        if (check->isChecked() != get(m_plan)) check->setChecked(get(m_plan));
    };
    connect(check, &QCheckBox::toggled, this,
        [this, index, set](bool on) { edit(index, [&](Plan& p) { set(p, on); }); });
    return check;
}

QComboBox* PlanEditorPage::addChoice(Section& section, const QString& path, const char* text, const char* tip,
    const QStringList& values, std::function<std::string(const Plan&)> get,
    std::function<void(Plan&, const std::string&)> set)
{
    auto* combo = new QComboBox(section.box);
    compact(combo);
    for (const QString& v : values)
        combo->addItem(v, v);
    const int index = addRow(section, path, text, tip, combo);
    m_fields[size_t(index)].show = [this, combo, get] {
        const int i = combo->findData(fromStd(get(m_plan)));
        if (combo->currentIndex() != i) combo->setCurrentIndex(i);
    };
    connect(combo, &QComboBox::currentIndexChanged, this, [this, index, combo, set](int i) {
        if (i < 0) return;
        const std::string value = combo->itemData(i).toString().toStdString();
        edit(index, [&](Plan& p) { set(p, value); });
    });
    return combo;
}

void PlanEditorPage::buildModel(Section& s)
{
    m_modelPreset = new QComboBox(s.box);
    compact(m_modelPreset);
    for (const ModelPreset& p : PresetCatalog::builtin().models())
        m_modelPreset->addItem(QStringLiteral("%1 (%2)").arg(fromStd(p.spec.name), fromStd(p.spec.preset)),
            fromStd(p.spec.preset));
    m_modelPreset->addItem(QString(), QString()); // "custom", named in retranslate()
    const int presetIndex = addRow(s, QStringLiteral("model.preset"), QT_TR_NOOP("Preset"),
        QT_TR_NOOP("Choosing a model fills every shape field below; editing one makes the model custom"),
        m_modelPreset);
    m_fields[size_t(presetIndex)].show = [this] {
        const int i = m_modelPreset->findData(fromStd(m_plan.model.preset));
        const int shown = i >= 0 ? i : m_modelPreset->count() - 1;
        if (m_modelPreset->currentIndex() != shown) m_modelPreset->setCurrentIndex(shown);
    };
    connect(m_modelPreset, &QComboBox::currentIndexChanged, this, [this, presetIndex](int i) {
        if (i < 0) return;
        const std::string id = m_modelPreset->itemData(i).toString().toStdString();
        edit(presetIndex, [&](Plan& p) {
            if (const ModelPreset* preset = PresetCatalog::builtin().model(id)) {
                p.model = preset->spec;
                p.model.preset = id;
            } else {
                p.model.preset.clear();
            }
        });
    });

    addInt(
        s, QStringLiteral("model.layers"), QT_TR_NOOP("Layers"), QT_TR_NOOP("Transformer layers"));
    addInt(
        s, QStringLiteral("model.hidden"), QT_TR_NOOP("Hidden size"), QT_TR_NOOP("Model width h"));
    addInt(
        s, QStringLiteral("model.heads"), QT_TR_NOOP("Attention heads"), nullptr);
    addInt(
        s, QStringLiteral("model.kvHeads"), QT_TR_NOOP("Key/value heads"),
        QT_TR_NOOP("Key/value heads (GQA/MQA); equal to the attention heads for multi-head attention"));
    addInt(
        s, QStringLiteral("model.ffnHidden"), QT_TR_NOOP("FFN hidden size"), QT_TR_NOOP("MLP inner size f"));
    addInt(
        s, QStringLiteral("model.vocab"), QT_TR_NOOP("Vocabulary"), nullptr);
    addInt(
        s, QStringLiteral("model.seqLength"), QT_TR_NOOP("Sequence length"),
        QT_TR_NOOP("Tokens per sequence s"));
    addCheck(
        s, QStringLiteral("model.gatedMlp"), QT_TR_NOOP("Gated MLP (SwiGLU/GeGLU)"),
        QT_TR_NOOP("Three h x f matrices in the MLP instead of two"),
        [](const Plan& p) { return p.model.gatedMlp; }, [](Plan& p, bool v) { p.model.gatedMlp = v; });
    addCheck(
        s, QStringLiteral("model.tiedEmbeddings"), QT_TR_NOOP("Tied embeddings"),
        QT_TR_NOOP("The output layer shares the embedding matrix"),
        [](const Plan& p) { return p.model.tiedEmbeddings; },
        [](Plan& p, bool v) { p.model.tiedEmbeddings = v; });
    addInt(
        s, QStringLiteral("model.headDim"), QT_TR_NOOP("Head size"),
        QT_TR_NOOP("Size of each query, key and value head; 0 = hidden / heads. Qwen3 and gpt-oss use heads x head "
                   "size other than hidden (Megatron-Core --kv-channels, Hugging Face head_dim)"));
    addCheck(
        s, QStringLiteral("model.qkNorm"), QT_TR_NOOP("QK norm"),
        QT_TR_NOOP("An RMSNorm over each query and key head before the scores (Qwen3; Megatron-Core --qk-layernorm)"),
        [](const Plan& p) { return p.model.qkNorm; }, [](Plan& p, bool v) { p.model.qkNorm = v; });
    addCheck(
        s, QStringLiteral("model.attentionSinks"), QT_TR_NOOP("Attention sinks"),
        QT_TR_NOOP("One learned logit per head in the softmax's denominator (gpt-oss; Megatron-Core --softmax-type "
                   "learnable)"),
        [](const Plan& p) { return p.model.attentionSinks; }, [](Plan& p, bool v) { p.model.attentionSinks = v; });
    addInt(
        s, QStringLiteral("model.mtpLayers"), QT_TR_NOOP("MTP modules"),
        QT_TR_NOOP("Multi-token-prediction modules after the last layer, on the last pipeline stage unless the layout "
                   "places its m (DeepSeek-V3: 1; Megatron-Core --mtp-num-layers)"));
}

// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1): the key/value latent's rank switches it on.
void PlanEditorPage::buildMla(Section& s)
{
    addInt(
        s, QStringLiteral("model.mla.kvLoraRank"), QT_TR_NOOP("Key/value latent rank"),
        QT_TR_NOOP("Rank of the compressed key/value latent; 0 = no MLA (DeepSeek-V3: 512; Megatron-Core "
                   "--kv-lora-rank, Hugging Face kv_lora_rank)"));
    addInt(
        s, QStringLiteral("model.mla.qLoraRank"), QT_TR_NOOP("Query latent rank"),
        QT_TR_NOOP("Rank of the compressed query latent; 0 = queries projected straight from h (DeepSeek-V3: 1536; "
                   "Megatron-Core --q-lora-rank, Hugging Face q_lora_rank)"));
    addInt(
        s, QStringLiteral("model.mla.qkNopeHeadDim"), QT_TR_NOOP("Query/key head size without RoPE"),
        QT_TR_NOOP("Per-head size of the query/key part without rotary embedding (DeepSeek-V3: 128; Megatron-Core "
                   "--qk-head-dim, Hugging Face qk_nope_head_dim)"));
    addInt(
        s, QStringLiteral("model.mla.qkRopeHeadDim"), QT_TR_NOOP("Query/key RoPE head size"),
        QT_TR_NOOP("Per-head size of the rotary query/key part; the key's is shared by all heads (DeepSeek-V3: 64; "
                   "Megatron-Core --qk-pos-emb-head-dim, Hugging Face qk_rope_head_dim)"));
    addInt(
        s, QStringLiteral("model.mla.vHeadDim"), QT_TR_NOOP("Value head size"),
        QT_TR_NOOP("Per-head size of the values (DeepSeek-V3: 128; Megatron-Core --v-head-dim, Hugging Face v_head_dim)"));
}

void PlanEditorPage::buildMoe(Section& s)
{
    addInt(
        s, QStringLiteral("model.moe.experts"), QT_TR_NOOP("MoE experts"),
        QT_TR_NOOP("Routed experts per layer; 0 = a dense model"));
    addInt(
        s, QStringLiteral("model.moe.topK"), QT_TR_NOOP("MoE top-k"),
        QT_TR_NOOP("Experts each token is routed to"));
    addInt(
        s, QStringLiteral("model.moe.expertFfnHidden"), QT_TR_NOOP("Expert FFN hidden size"), nullptr);
    addInt(
        s, QStringLiteral("model.moe.sharedExperts"), QT_TR_NOOP("Shared experts"),
        QT_TR_NOOP("Experts every token passes through besides its routed ones (DeepSeek-V3: 1; Hugging Face "
                   "n_shared_experts)"));
    addInt(
        s, QStringLiteral("model.moe.sharedExpertFfnHidden"), QT_TR_NOOP("Shared expert FFN hidden size"),
        QT_TR_NOOP("Inner size of each shared expert; 0 = the expert FFN size. Megatron-Core's "
                   "--moe-shared-expert-intermediate-size is this times the shared experts"));
    addInt(
        s, QStringLiteral("model.moe.denseLayers"), QT_TR_NOOP("Dense first layers"),
        QT_TR_NOOP("The first layers keep a dense MLP of the FFN hidden size (DeepSeek-V3: 3, Hugging Face "
                   "first_k_dense_replace; Megatron-Core --moe-layer-freq [0]*3+[1]*58)"));
    addCheck(
        s, QStringLiteral("model.moe.routerBias"), QT_TR_NOOP("Router bias per expert"),
        QT_TR_NOOP("A bias per expert on the router (gpt-oss; DeepSeek-V3's e_score_correction_bias, Megatron-Core "
                   "--moe-router-enable-expert-bias)"),
        [](const Plan& p) { return p.model.moe.routerBias; }, [](Plan& p, bool v) { p.model.moe.routerBias = v; });
    QDoubleSpinBox* capacity = addScaled(
        s, QStringLiteral("model.moe.capacityFactor"), QT_TR_NOOP("Capacity factor"),
        QT_TR_NOOP("Tokens an expert takes, as a multiple of its balanced share; the experts compute on that many "
                   "(padded). 0 = dropless (Megatron-Core --moe-expert-capacity-factor)"),
        1, 2, 1000, [](const Plan& p) { return p.model.moe.capacityFactor; },
        [](Plan& p, double v) { p.model.moe.capacityFactor = v; });
    capacity->setSingleStep(0.25);
    addChoice(
        s, QStringLiteral("model.moe.dispatcher"), QT_TR_NOOP("Token dispatcher"),
        QT_TR_NOOP("alltoall: each token's top-k copies go to their experts' ranks; allgather: every expert-parallel "
                   "rank gathers all the group's tokens (Megatron-Core --moe-token-dispatcher-type)"),
        { fromStd(toString(MoeDispatcher::AllToAll)), fromStd(toString(MoeDispatcher::AllGather)) },
        [](const Plan& p) { return nameOf(p.model.moe.dispatcher); },
        [](Plan& p, const std::string& v) { parseInto(v, p.model.moe.dispatcher); });
    addCheck(
        s, QStringLiteral("model.moe.groupedGemm"), QT_TR_NOOP("Grouped expert GEMMs"),
        QT_TR_NOOP("The local experts' GEMMs run as one grouped kernel; off, one GEMM and one launch per expert "
                   "(Megatron-Core --moe-grouped-gemm)"),
        [](const Plan& p) { return p.model.moe.groupedGemm; }, [](Plan& p, bool v) { p.model.moe.groupedGemm = v; });
    addCheck(
        s, QStringLiteral("model.moe.syncFree"), QT_TR_NOOP("Sync-free dispatch"),
        QT_TR_NOOP("The dispatcher keeps each expert's token count on the device; off, a dropless dispatcher copies "
                   "the counts to the host every MoE layer forward (a host sync). Capacity routing never syncs "
                   "(Megatron-Core HybridEP with --moe-expert-rank-capacity-factor)"),
        [](const Plan& p) { return p.model.moe.syncFree; }, [](Plan& p, bool v) { p.model.moe.syncFree = v; });
    QDoubleSpinBox* imbalance = addScaled(
        s, QStringLiteral("model.moe.imbalance"), QT_TR_NOOP("Expert load imbalance"),
        QT_TR_NOOP("Tokens the busiest expert-parallel rank's experts take, as a multiple of the balanced share; at "
                   "least 1. 1 = balanced, as the published Megatron-Core benchmarks force the routing"),
        1, 2, 1000, [](const Plan& p) { return p.model.moe.imbalance; },
        [](Plan& p, double v) { p.model.moe.imbalance = v; });
    {
        // Balanced is the least there is; the first show() puts the plan's value in.
        const QSignalBlocker block(imbalance);
        imbalance->setMinimum(1);
    }
    imbalance->setSingleStep(0.1);
}

void PlanEditorPage::buildCluster(Section& s)
{
    m_gpu = new QComboBox(s.box);
    compact(m_gpu);
    for (const GpuPreset& g : PresetCatalog::builtin().gpus())
        m_gpu->addItem(fromStd(g.spec.name), fromStd(g.spec.id));
    const int gpuIndex = addRow(s, QStringLiteral("cluster.gpu"), QT_TR_NOOP("GPU"),
        QT_TR_NOOP("Choosing a GPU also takes its usual node's links and GPUs per node"), m_gpu);
    m_fields[size_t(gpuIndex)].show = [this] {
        int i = m_gpu->findData(fromStd(m_plan.cluster.gpu.id));
        const int customIndex = m_gpu->findData(QString());
        if (i >= 0 && customIndex >= 0) m_gpu->removeItem(customIndex);
        if (i < 0) {
            // A GPU given as an object in the file: one extra entry names it.
            const QString custom = tr("custom: %1").arg(fromStd(m_plan.cluster.gpu.name));
            i = m_gpu->findData(QString());
            if (i < 0) {
                m_gpu->addItem(custom, QString());
                i = m_gpu->count() - 1;
            } else {
                m_gpu->setItemText(i, custom);
            }
        }
        if (m_gpu->currentIndex() != i) m_gpu->setCurrentIndex(i);
        const GpuSpec& g = m_plan.cluster.gpu;
        m_gpuInfo->setText(tr("%1 GiB per GPU, %2 TFLOP/s dense %3, %4 GPUs in all")
                               .arg(units::toGiB(double(g.memoryBytes)), 0, 'f', 1)
                               .arg(g.peakFlops.forPrecision(m_plan.training.precision) / 1e12, 0, 'f', 0)
                               .arg(fromStd(toString(m_plan.training.precision)))
                               .arg(m_plan.cluster.gpus()));
        m_gpuInfo->setToolTip(tr("%1 bytes of memory").arg(g.memoryBytes));
    };
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this, gpuIndex](int i) {
        if (i < 0) return;
        const std::string id = m_gpu->itemData(i).toString().toStdString();
        const GpuPreset* preset = PresetCatalog::builtin().gpu(id);
        if (!preset) return;
        edit(gpuIndex, [&](Plan& p) {
            // As the loader does: the links come from the GPU's usual node.
            p.cluster.gpu = preset->spec;
            if (const NodePreset* node = PresetCatalog::builtin().node(preset->spec.defaultNode)) {
                p.cluster.nodePreset = node->id;
                p.cluster.gpusPerNode = node->gpusPerNode;
                p.cluster.intraNode = node->intraNode;
                p.cluster.interNode = node->interNode;
            }
        });
    });
    m_gpuInfo = new QLabel(s.box);
    m_gpuInfo->setWordWrap(true);
    setTextColor(m_gpuInfo, Theme::ink());
    s.grid->addWidget(m_gpuInfo, s.row++, 1);

    addInt(
        s, QStringLiteral("cluster.nodes"), QT_TR_NOOP("Nodes"), nullptr);
    addInt(
        s, QStringLiteral("cluster.gpusPerNode"), QT_TR_NOOP("GPUs per node"), nullptr);
    const char* bandwidthTip
        = QT_TR_NOOP("Bytes per second per GPU per direction (A100 NVLink 3 \"600 GB/s\" "
                     "is 300 GB/s per direction; HDR InfiniBand 200 Gb/s is 25 GB/s)");
    addScaled(
        s, QStringLiteral("cluster.intraNode.bandwidth"), QT_TR_NOOP("Inside a node, GB/s per direction"),
        bandwidthTip, units::kGB, 1, 1e6, [](const Plan& p) { return p.cluster.intraNode.bandwidth; },
        [](Plan& p, double v) { p.cluster.intraNode.bandwidth = v; });
    addScaled(
        s, QStringLiteral("cluster.intraNode.latency"), QT_TR_NOOP("Inside a node, latency in µs"),
        QT_TR_NOOP("Per collective step (alpha)"), 1e-6, 2, 1e6,
        [](const Plan& p) { return p.cluster.intraNode.latency; },
        [](Plan& p, double v) { p.cluster.intraNode.latency = v; });
    addScaled(
        s, QStringLiteral("cluster.interNode.bandwidth"), QT_TR_NOOP("Between nodes, GB/s per direction"),
        bandwidthTip, units::kGB, 1, 1e6, [](const Plan& p) { return p.cluster.interNode.bandwidth; },
        [](Plan& p, double v) { p.cluster.interNode.bandwidth = v; });
    addScaled(
        s, QStringLiteral("cluster.interNode.latency"), QT_TR_NOOP("Between nodes, latency in µs"),
        QT_TR_NOOP("Per collective step (alpha)"), 1e-6, 2, 1e6,
        [](const Plan& p) { return p.cluster.interNode.latency; },
        [](Plan& p, double v) { p.cluster.interNode.latency = v; });
}

void PlanEditorPage::buildParallel(Section& s)
{
    // The group's own line: dp*tp*pp*cp against the GPU count.
    addRow(s, QStringLiteral("parallel"), nullptr, nullptr, nullptr);

    // dp with its "auto" box on one row.
    auto* dpRow = new QWidget(s.box);
    auto* dpLayout = new QHBoxLayout(dpRow);
    dpLayout->setContentsMargins(0, 0, 0, 0);
    auto* dp = new QSpinBox(dpRow);
    setLimits(dp, QStringLiteral("parallel.dp"));
    m_autoDp = new QCheckBox(dpRow);
    m_autoDp->setChecked(true);
    m_dpFormula = new QLabel(dpRow);
    setTextColor(m_dpFormula, Theme::ink());
    dpLayout->addWidget(dp, 1);
    dpLayout->addWidget(m_autoDp);
    dpLayout->addWidget(m_dpFormula);
    const int dpIndex = addRow(s, QStringLiteral("parallel.dp"), QT_TR_NOOP("Data parallel (dp)"),
        QT_TR_NOOP("dp*tp*pp*cp must equal the GPU count"), dp, dpRow);
    m_fields[size_t(dpIndex)].show = [this, dp] {
        if (dp->value() != m_plan.parallel.dp) dp->setValue(m_plan.parallel.dp);
        dp->setEnabled(!m_autoDp->isChecked());
    };
    connect(dp, &QSpinBox::valueChanged, this,
        [this, dpIndex](int v) { edit(dpIndex, [&](Plan& p) { p.parallel.dp = v; }); });
    connect(m_autoDp, &QCheckBox::toggled, this, [this, dp, dpIndex](bool on) {
        dp->setEnabled(!on);
        if (on) edit(dpIndex, [](Plan&) {}); // normalise() derives it
    });

    const struct {
        const char* name;
        const char* text;
        const char* tip;
    } degrees[] = {
        { "tp", QT_TR_NOOP("Tensor parallel (tp)"),
            QT_TR_NOOP("Must divide the heads, key/value heads and FFN size") },
        { "pp", QT_TR_NOOP("Pipeline parallel (pp)"),
            QT_TR_NOOP("Pipeline stages; must divide the layers for an even split") },
        { "cp", QT_TR_NOOP("Context parallel (cp)"),
            QT_TR_NOOP("Splits the sequence; must divide the sequence length") },
        { "ep", QT_TR_NOOP("Expert parallel (ep)"),
            QT_TR_NOOP("Carved out of the dp*cp ranks; must divide the experts") },
        { "etp", QT_TR_NOOP("Expert TP (etp)"),
            QT_TR_NOOP("Tensor parallelism inside each routed expert; 0 = the same as tp. etp*ep must divide tp*dp*cp "
                       "(Megatron-Core --expert-tensor-parallel-size)") },
        { "vpp", QT_TR_NOOP("Chunks per rank (vpp)"),
            QT_TR_NOOP("Virtual stages per rank for interleaved-1f1b") },
    };
    for (const auto& d : degrees) addInt(s, QStringLiteral("parallel.") + QLatin1String(d.name), d.text, d.tip);
    addCheck(
        s, QStringLiteral("parallel.sp"), QT_TR_NOOP("Sequence parallelism (with tp > 1)"), nullptr,
        [](const Plan& p) { return p.parallel.sp; }, [](Plan& p, bool v) { p.parallel.sp = v; });

    m_zero = new QComboBox(s.box);
    compact(m_zero);
    for (int stage = 0; stage <= 3; ++stage)
        m_zero->addItem(QString(), stage);
    const int zeroIndex = addRow(s, QStringLiteral("parallel.zero"), QT_TR_NOOP("ZeRO stage"),
        QT_TR_NOOP(
            "Sharding over the dp*cp group: 1 optimizer states, 2 also gradients, 3 also parameters (FSDP)"),
        m_zero);
    m_fields[size_t(zeroIndex)].show = [this] {
        const int i = m_zero->findData(m_plan.parallel.zero);
        if (m_zero->currentIndex() != i) m_zero->setCurrentIndex(i);
    };
    connect(m_zero, &QComboBox::currentIndexChanged, this, [this, zeroIndex](int i) {
        if (i < 0) return;
        const int stage = m_zero->itemData(i).toInt();
        edit(zeroIndex, [&](Plan& p) { p.parallel.zero = stage; });
    });

    auto* order = new QLineEdit(s.box);
    const int orderIndex = addRow(s, QStringLiteral("parallel.order"), QT_TR_NOOP("Rank order"),
        QT_TR_NOOP("Fastest-varying first; Megatron's default is tp-cp-ep-dp-pp"), order);
    m_fields[size_t(orderIndex)].show = [this, order] {
        const QString text = fromStd(m_plan.parallel.order);
        // Compared trimmed, so a space being typed is not taken away under the cursor.
        if (order->text().trimmed() != text) order->setText(text);
    };
    connect(order, &QLineEdit::textChanged, this, [this, orderIndex](const QString& text) {
        edit(orderIndex, [&](Plan& p) { p.parallel.order = text.trimmed().toStdString(); });
    });

    addInt(
        s, QStringLiteral("parallel.firstStageLayers"), QT_TR_NOOP("Layers on the first stage"),
        QT_TR_NOOP("0 spreads the layers evenly; otherwise the middle stages share the rest"));
    addInt(
        s, QStringLiteral("parallel.lastStageLayers"), QT_TR_NOOP("Layers on the last stage"),
        QT_TR_NOOP("0 spreads the layers evenly; otherwise the middle stages share the rest"));
    addCheck(
        s, QStringLiteral("parallel.embeddingInSplit"), QT_TR_NOOP("Embedding counts as a layer of the split"),
        QT_TR_NOOP("Megatron-Core --account-for-embedding-in-pipeline-split: the first stage holds one transformer "
                   "layer fewer"),
        [](const Plan& p) { return p.parallel.embeddingInSplit; }, [](Plan& p, bool v) { p.parallel.embeddingInSplit = v; });
    addCheck(
        s, QStringLiteral("parallel.lossInSplit"), QT_TR_NOOP("Loss counts as a layer of the split"),
        QT_TR_NOOP("Megatron-Core --account-for-loss-in-pipeline-split: the last stage holds one transformer layer fewer"),
        [](const Plan& p) { return p.parallel.lossInSplit; }, [](Plan& p, bool v) { p.parallel.lossInSplit = v; });

    // The layout with its "Balance stages" button on one row, and the button's note under them.
    auto* layoutRow = new QWidget(s.box);
    auto* layoutColumn = new QVBoxLayout(layoutRow);
    layoutColumn->setContentsMargins(0, 0, 0, 0);
    layoutColumn->setSpacing(2);
    auto* layoutLine = new QHBoxLayout;
    layoutLine->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QLineEdit(layoutRow);
    layout->setPlaceholderText(tr("even split"));
    m_balance = new QPushButton(layoutRow);
    m_balance->setObjectName(QStringLiteral("balanceStages"));
    layoutLine->addWidget(layout, 1);
    layoutLine->addWidget(m_balance);
    m_balanceNote = new QLabel(layoutRow);
    m_balanceNote->setObjectName(QStringLiteral("balanceNote"));
    m_balanceNote->setWordWrap(true);
    m_balanceNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = m_balanceNote->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_balanceNote->setFont(small);
    m_balanceNote->hide();
    // Each rank's layers under the split as it stands (core/spec/SplitText.h, the same text as the timeline's and the
    // memory bars' labels).
    m_splitNote = new QLabel(layoutRow);
    m_splitNote->setObjectName(QStringLiteral("splitNote"));
    m_splitNote->setWordWrap(true);
    m_splitNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_splitNote->setFont(small);
    layoutColumn->addLayout(layoutLine);
    layoutColumn->addWidget(m_splitNote);
    layoutColumn->addWidget(m_balanceNote);
    const int layoutIndex = addRow(s, QStringLiteral("parallel.layout"), QT_TR_NOOP("Pipeline layout"),
        QT_TR_NOOP("Megatron-Core --pipeline-model-parallel-layout: E embedding, t layer, m MTP layer, L loss, | between "
                   "stages, (...)*N repeats; e.g. Et|(tt|)*30mL. Empty: the split above"),
        layout, layoutRow);
    connect(m_balance, &QPushButton::clicked, this, [this, layoutIndex] { balanceStages(layoutIndex); });
    m_fields[size_t(layoutIndex)].show = [this, layout] {
        const QString text = fromStd(m_plan.parallel.layout);
        if (layout->text().trimmed() != text) layout->setText(text);
        QStringList ranks;
        const std::vector<std::string> split = rankSplitTexts(m_plan);
        for (std::size_t r = 0; r < split.size(); ++r)
            ranks << QStringLiteral("%1: %2").arg(r).arg(fromStd(split[r]));
        m_splitNote->setText(tr("Layers per rank (E embedding, L loss, | between chunks): %1")
                                 .arg(ranks.join(QStringLiteral("  \u00b7  "))));
    };
    connect(layout, &QLineEdit::textChanged, this, [this, layoutIndex](const QString& text) {
        edit(layoutIndex, [&](Plan& p) { p.parallel.layout = text.trimmed().toStdString(); });
    });
}

void PlanEditorPage::buildTraining(Section& s)
{
    addInt(
        s, QStringLiteral("training.microBatch"), QT_TR_NOOP("Microbatch (sequences)"), nullptr);

    auto* batchRow = new QWidget(s.box);
    auto* batchLayout = new QHBoxLayout(batchRow);
    batchLayout->setContentsMargins(0, 0, 0, 0);
    auto* batch = new QSpinBox(batchRow);
    setLimits(batch, QStringLiteral("training.globalBatch"));
    batch->setAccelerated(true);
    m_microbatchInfo = new QLabel(batchRow);
    setTextColor(m_microbatchInfo, Theme::ink());
    batchLayout->addWidget(batch, 1);
    batchLayout->addWidget(m_microbatchInfo);
    const int batchIndex
        = addRow(s, QStringLiteral("training.globalBatch"), QT_TR_NOOP("Global batch (sequences)"),
            QT_TR_NOOP("Sequences per step; microbatches per step = globalBatch / (microBatch * dp)"), batch,
            batchRow);
    m_fields[size_t(batchIndex)].show = [this, batch] {
        const int v = int(std::clamp<std::int64_t>(m_plan.training.globalBatch, 1, batch->maximum()));
        if (batch->value() != v) batch->setValue(v);
        const auto m = m_plan.microbatches();
        m_microbatchInfo->setText(m == 1 ? tr("= 1 microbatch") : tr("= %1 microbatches").arg(m));
    };
    connect(batch, &QSpinBox::valueChanged, this,
        [this, batchIndex](int v) { edit(batchIndex, [&](Plan& p) { p.training.globalBatch = v; }); });

    addChoice(
        s, QStringLiteral("training.precision"), QT_TR_NOOP("Precision"),
        QT_TR_NOOP("Dtype of the GEMMs and weights (fp8: GEMMs at the fp8 peak, weights kept in bf16)"),
        precisionNames(), [](const Plan& p) { return nameOf(p.training.precision); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.precision); });
    QStringList recipes;
    for (Fp8Recipe r : { Fp8Recipe::Delayed, Fp8Recipe::Current, Fp8Recipe::MxFp8, Fp8Recipe::Blockwise })
        recipes << fromStd(toString(r));
    addChoice(
        s, QStringLiteral("training.fp8Recipe"), QT_TR_NOOP("FP8 scaling recipe"),
        QT_TR_NOOP("With fp8, how Transformer Engine scales fp8 tensors: delayed from an amax history, current per "
                   "tensor each step, mxfp8 in 32-element blocks (Blackwell), blockwise in 128x128 weight blocks "
                   "(DeepSeek-V3). Megatron-Core --fp8-recipe, where current is tensorwise"),
        recipes, [](const Plan& p) { return nameOf(p.training.fp8Recipe); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.fp8Recipe); });
    addCheck(
        s, QStringLiteral("training.fp8ParamGather"), QT_TR_NOOP("FP8 primary weights"),
        QT_TR_NOOP("With fp8, the fp8 GEMMs' weights are kept in fp8: no bf16 copy, only the transposed fp8 cache "
                   "(Megatron-Core --fp8-param-gather)"),
        [](const Plan& p) { return p.training.fp8ParamGather; }, [](Plan& p, bool v) { p.training.fp8ParamGather = v; });
    addChoice(
        s, QStringLiteral("training.gradDtype"), QT_TR_NOOP("Gradient dtype"),
        QT_TR_NOOP("Dtype gradients are kept and reduced in (Megatron: fp32 main grads)"), precisionNames(),
        [](const Plan& p) { return nameOf(p.training.gradDtype); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.gradDtype); });
    addChoice(
        s, QStringLiteral("training.optimizer"), QT_TR_NOOP("Optimizer"), nullptr,
        { fromStd(toString(Optimizer::Adam)), fromStd(toString(Optimizer::SGD)), fromStd(toString(Optimizer::Muon)) },
        [](const Plan& p) { return nameOf(p.training.optimizer); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.optimizer); });
    addChoice(
        s, QStringLiteral("training.optimizerStateDtype"), QT_TR_NOOP("Adam moment dtype"),
        QT_TR_NOOP("Dtype of Adam's two moments; bf16 or fp16 halves them (Megatron-Core's precision-aware optimizer, "
                   "--exp-avg-dtype and --exp-avg-sq-dtype)"),
        { fromStd(toString(Precision::FP32)), fromStd(toString(Precision::BF16)), fromStd(toString(Precision::FP16)) },
        [](const Plan& p) { return nameOf(p.training.optimizerStateDtype); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.optimizerStateDtype); });
    QStringList recompute;
    for (Recompute r : { Recompute::None, Recompute::Selective, Recompute::Full })
        recompute << fromStd(toString(r));
    addChoice(
        s, QStringLiteral("training.recompute"), QT_TR_NOOP("Recompute"),
        QT_TR_NOOP("selective: the attention core; full: every layer keeps only its input"), recompute,
        [](const Plan& p) { return nameOf(p.training.recompute); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.recompute); });
    buildRecomputeModules(s);
    addInt(
        s, QStringLiteral("training.recomputeLayers"), QT_TR_NOOP("Recompute layers (N)"),
        QT_TR_NOOP("With full recompute: uniform keeps one input per group of N layers, block recomputes the first N "
                   "layers of each chunk and keeps the rest whole; 0 = every layer (Megatron-Core "
                   "--recompute-num-layers)"));
    addChoice(
        s, QStringLiteral("training.recomputeMethod"), QT_TR_NOOP("Recompute method"),
        QT_TR_NOOP("With full recompute: uniform splits the layers into groups of N that keep one input each; block "
                   "recomputes N layers per chunk (Megatron-Core --recompute-method)"),
        { QStringLiteral("uniform"), QStringLiteral("block") },
        [](const Plan& p) { return std::string(p.training.recomputeBlock ? "block" : "uniform"); },
        [](Plan& p, const std::string& v) { p.training.recomputeBlock = v == "block"; });
    QStringList schedules;
    for (const ScheduleTraits& st : scheduleTraits()) schedules << fromStd(st.name);
    addChoice(
        s, QStringLiteral("training.schedule"), QT_TR_NOOP("Pipeline schedule"), nullptr, schedules,
        [](const Plan& p) { return nameOf(p.training.schedule); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.schedule); });
    addCheck(
        s, QStringLiteral("training.flashAttention"), QT_TR_NOOP("Flash attention"),
        QT_TR_NOOP("No s x s score tensors are kept for the backward"),
        [](const Plan& p) { return p.training.flashAttention; },
        [](Plan& p, bool v) { p.training.flashAttention = v; });
    addCheck(
        s, QStringLiteral("training.overlapGradReduce"), QT_TR_NOOP("Overlap gradient reduction"),
        QT_TR_NOOP("Data-parallel gradients are reduced bucket by bucket during the last backward; only the last "
                   "bucket stays exposed (Megatron-Core --overlap-grad-reduce)"),
        [](const Plan& p) { return p.training.overlapGradReduce; },
        [](Plan& p, bool v) { p.training.overlapGradReduce = v; });
    addCheck(
        s, QStringLiteral("training.tpCommOverlap"), QT_TR_NOOP("TP communication overlap"),
        QT_TR_NOOP("Tensor-parallel collectives overlap the GEMMs beside them (Transformer Engine, "
                   "--tp-comm-overlap); off, only the column-parallel backward's are hidden"),
        [](const Plan& p) { return p.training.tpCommOverlap; },
        [](Plan& p, bool v) { p.training.tpCommOverlap = v; });
    addCheck(
        s, QStringLiteral("training.overlapP2pComm"), QT_TR_NOOP("Overlap pipeline sends"),
        QT_TR_NOOP("Pipeline sends run beside the next op (Megatron-Core --overlap-p2p-communication); off, a rank "
                   "waits for each send to finish before its next op"),
        [](const Plan& p) { return p.training.overlapP2pComm; },
        [](Plan& p, bool v) { p.training.overlapP2pComm = v; });
    addCheck(
        s, QStringLiteral("training.overlapMoeComm"), QT_TR_NOOP("Overlap expert-parallel all-to-alls"),
        QT_TR_NOOP("The expert-parallel all-to-alls of one microbatch run beside another microbatch's compute (the "
                   "forward of one and the backward of the next merged, as DualPipe does). Needs an MoE model with "
                   "ep > 1, and the interleaved schedule when pp > 1 (Megatron-Core "
                   "--overlap-moe-expert-parallel-comm)"),
        [](const Plan& p) { return p.training.overlapMoeComm; },
        [](Plan& p, bool v) { p.training.overlapMoeComm = v; });

    auto* tokens = new FieldScientificSpinBox(s.box);
    const int tokensIndex = addRow(s, QStringLiteral("training.tokens"), QT_TR_NOOP("Training tokens"),
        QT_TR_NOOP("Tokens to train on, for the training-days estimate; type 3e11 or 2e12"), tokens);
    m_fields[size_t(tokensIndex)].show = [this, tokens] {
        if (tokens->value() != m_plan.training.tokens) tokens->setValue(m_plan.training.tokens);
    };
    connect(tokens, &QDoubleSpinBox::valueChanged, this,
        [this, tokensIndex](double v) { edit(tokensIndex, [&](Plan& p) { p.training.tokens = v; }); });
}

// The host (docs/MODEL.md section 7.4): the CPU issues every kernel and the GPU runs what has been issued. The times
// are shown in microseconds (the plan keeps seconds); 0 is the documented default.
void PlanEditorPage::buildHost(Section& s)
{
    QStringList graphs;
    for (CudaGraphs g : { CudaGraphs::None, CudaGraphs::PerLayer, CudaGraphs::FullIteration })
        graphs << fromStd(toString(g));
    addChoice(
        s, QStringLiteral("training.host.cudaGraphs"), QT_TR_NOOP("CUDA graphs"),
        QT_TR_NOOP("none: the CPU issues every kernel; per-layer: each layer's forward and backward is one graph "
                   "(with a dropless MoE dispatcher that syncs with the host, only the part before the sync); "
                   "full-iteration: the whole step is one graph and needs a step without host syncs (Megatron-Core "
                   "--cuda-graph-impl, --cuda-graph-scope)"),
        graphs, [](const Plan& p) { return nameOf(p.training.host.cudaGraphs); },
        [](Plan& p, const std::string& v) { parseInto(v, p.training.host.cudaGraphs); });
    addScaled(
        s, QStringLiteral("training.host.kernelSeconds"), QT_TR_NOOP("CPU time per kernel, µs"),
        QT_TR_NOOP("CPU time to issue one kernel eagerly (framework dispatch and the launch); 0 = 41 µs, read from "
                   "real PyTorch-profiler traces (docs/HARDWARE.md, \"Host\")"),
        1e-6, 1, 1e6, [](const Plan& p) { return p.training.host.kernelSeconds; },
        [](Plan& p, double v) { p.training.host.kernelSeconds = v; });
    addScaled(
        s, QStringLiteral("training.host.syncSeconds"), QT_TR_NOOP("Host sync, µs"),
        QT_TR_NOOP("CPU time of a device-to-host copy and its wait, beyond the GPU's drain; 0 = one kernel's issue. "
                   "Only a dropless MoE dispatcher without sync-free dispatch syncs"),
        1e-6, 1, 1e6, [](const Plan& p) { return p.training.host.syncSeconds; },
        [](Plan& p, double v) { p.training.host.syncSeconds = v; });
    addScaled(
        s, QStringLiteral("training.host.graphLaunchSeconds"), QT_TR_NOOP("CUDA graph launch, µs"),
        QT_TR_NOOP("CPU time to launch one CUDA graph; 0 = one kernel's issue"), 1e-6, 1, 1e6,
        [](const Plan& p) { return p.training.host.graphLaunchSeconds; },
        [](Plan& p, double v) { p.training.host.graphLaunchSeconds = v; });
    addInt(
        s, QStringLiteral("training.host.launchQueue"), QT_TR_NOOP("Launch queue (kernels)"),
        QT_TR_NOOP("Kernels the CPU issues ahead of the GPU before it blocks; 0 = 1,000 (about what a CUDA stream "
                   "holds)"));
}

// Megatron-Core's --recompute-modules as one box per module, in a grid that fits the field's column.
void PlanEditorPage::buildRecomputeModules(Section& s)
{
    const struct {
        const char* name;
        const char* tip;
    } modules[] = {
        { "core_attn", QT_TR_NOOP("The core attention: scores, softmax, dropout and the weighted values") },
        { "mlp", QT_TR_NOOP("The dense MLP (dense layers)") },
        { "moe", QT_TR_NOOP("The whole MoE layer: router, dispatch, experts and combine") },
        { "moe_act", QT_TR_NOOP("The activation function inside the experts") },
        { "layernorm", QT_TR_NOOP("The input and pre-MLP norms") },
        { "mla_up_proj", QT_TR_NOOP("MLA's up projections and the rotary embedding applied to them") },
        { "shared_experts", QT_TR_NOOP("The shared experts") },
    };
    auto* row = new QWidget(s.box);
    auto* grid = new QGridLayout(row);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    const int index = addRow(s, QStringLiteral("training.recomputeModules"), QT_TR_NOOP("Recomputed modules"),
        QT_TR_NOOP("With selective recompute: the modules re-run in the backward instead of keeping their "
                   "activations; with none ticked, core_attn (Megatron-Core --recompute-modules)"),
        row);
    constexpr int perLine = 2;
    int i = 0;
    for (const auto& m : modules) {
        auto* box = new QCheckBox(QLatin1String(m.name), row);
        box->setObjectName(QStringLiteral("recomputeModule:") + QLatin1String(m.name));
        grid->addWidget(box, i / perLine, i % perLine);
        ++i;
        m_recomputeModules.push_back({ QLatin1String(m.name), box, m.tip });
        connect(box, &QCheckBox::toggled, this, [this, index] { toggleRecomputeModule(index); });
    }
    m_fields[size_t(index)].show = [this] {
        const auto& chosen = m_plan.training.recomputeModules;
        for (const ModuleBox& m : m_recomputeModules) {
            // None chosen is Megatron-Core's default: core_attn alone.
            const bool on = chosen.empty() ? m.name == QLatin1String("core_attn")
                                           : std::find(chosen.begin(), chosen.end(), m.name.toStdString()) != chosen.end();
            if (m.box->isChecked() != on) m.box->setChecked(on);
        }
    };
}

void PlanEditorPage::buildOffload(Section& s)
{
    QDoubleSpinBox* fraction = addScaled(
        s, QStringLiteral("training.offload.optimizerFraction"), QT_TR_NOOP("Optimizer share on the CPU"),
        QT_TR_NOOP("Share of the optimizer state (master weights and moments) kept and stepped on the CPU, 0 to 1 "
                   "(Megatron-Core --optimizer-cpu-offload with --optimizer-offload-fraction)"),
        1, 2, 1, [](const Plan& p) { return p.training.offload.optimizerFraction; },
        [](Plan& p, double v) { p.training.offload.optimizerFraction = v; });
    fraction->setSingleStep(0.05);
    addInt(
        s, QStringLiteral("training.offload.activationLayers"), QT_TR_NOOP("Layers with offloaded activations"),
        QT_TR_NOOP("Layers per chunk whose saved activations wait in host memory until the backward (Transformer "
                   "Engine activation offloading, Megatron-Core --cpu-offloading-num-layers)"));
    const struct {
        const char* path;
        const char* text;
        const char* tip;
        double OffloadSpec::*member;
    } rates[] = {
        { "training.offload.pcieBandwidth", QT_TR_NOOP("PCIe, bytes/s per direction"),
            QT_TR_NOOP("Between a GPU and the host, per direction; 0 = the GPU's PCIe generation (x16: 63 GB/s on PCIe "
                       "5.0, 31.5 GB/s on 4.0). Type 5e10"),
            &OffloadSpec::pcieBandwidth },
        { "training.offload.hostBandwidth", QT_TR_NOOP("Host memory, bytes/s per GPU"),
            QT_TR_NOOP("Host memory bandwidth one GPU's offloaded optimizer step gets; 0 = 76.8 GB/s (8 channels of "
                       "DDR5-4800 shared by 4 GPUs). Type 1e11"),
            &OffloadSpec::hostBandwidth },
    };
    for (const auto& r : rates) {
        auto* spin = new FieldScientificSpinBox(s.box);
        const int index = addRow(s, QLatin1String(r.path), r.text, r.tip, spin);
        const auto member = r.member;
        m_fields[size_t(index)].show = [this, spin, member] {
            if (spin->value() != m_plan.training.offload.*member) spin->setValue(m_plan.training.offload.*member);
        };
        connect(spin, &QDoubleSpinBox::valueChanged, this,
            [this, index, member](double v) { edit(index, [&](Plan& p) { p.training.offload.*member = v; }); });
    }
}

// --- editing --------------------------------------------------------------------------------------------

void PlanEditorPage::edit(int field, const std::function<void(Plan&)>& change)
{
    if (m_refreshing) return;
    Plan next = m_plan;
    change(next);
    const QString& path = m_fields[size_t(field)].path;
    normalise(next, path);
    if (next == m_plan) {
        refreshFields(); // e.g. dp typed while it is automatic: show the derived value again
        return;
    }
    // In the user's words: the field's label and the value as the editor shows it ("Set Pipeline schedule to gpipe").
    const Field& f = m_fields[size_t(field)];
    const QString label = f.text ? tr(f.text) : path;
    QString value;
    bool mergeable = true;
    if (auto* combo = qobject_cast<QComboBox*>(f.editor)) {
        value = combo->currentText();
        mergeable = false;
    } else if (auto* check = qobject_cast<QCheckBox*>(f.editor)) {
        value = check->isChecked() ? tr("on") : tr("off");
        mergeable = false;
    } else if (auto* spin = qobject_cast<QAbstractSpinBox*>(f.editor)) {
        value = spin->text().trimmed();
    } else if (auto* line = qobject_cast<QLineEdit*>(f.editor)) {
        value = line->text().trimmed();
    }
    pushEdit(field, std::move(next), value.isEmpty() ? tr("Change %1").arg(label) : tr("Set %1 to %2").arg(label, value),
        mergeable);
}

void PlanEditorPage::pushEdit(int field, Plan next, const QString& text, bool mergeable)
{
    auto* command = new PlanEditCommand([this](const Plan& p) { applyPlan(p); }, field + 1, m_plan, std::move(next), text);
    command->setMergeable(mergeable);
    m_undoStack->push(command);
}

void PlanEditorPage::pushPlan(const Plan& plan, const QString& text)
{
    if (plan == m_plan) return;
    pushEdit(-1, plan, text, false); // id -1: never merged with a field's edits
}

void PlanEditorPage::balanceStages(int layoutField)
{
    const auto balanced = autoBalance(m_plan);
    if (!balanced) {
        QStringList reasons;
        for (const Issue& i : balanced.errors())
            if (i.severity == Severity::Error) reasons << fromStd(i.path) + QStringLiteral(": ") + CoreText::text(i);
        showBalanceNote(tr("Cannot balance the stages: %1").arg(reasons.join(QStringLiteral("; "))), true);
        return;
    }
    const BalancedSplit& b = balanced.value();
    const QString peak = display::bytes(double(b.after.peakBytes));
    if (!b.fits) {
        // Nothing is set: the split closest to fitting still does not.
        showBalanceNote(tr("No split fits in %1 per GPU: even the split with the least memory (%2) peaks at %3 on stage "
                           "%4. The layout is left as it was.")
                            .arg(display::bytes(double(b.capacityBytes)), fromStd(b.layout), peak)
                            .arg(b.after.peakRank),
            true);
        return;
    }
    m_balancedLayout = b.layout;
    const QString before = b.before.valid ? display::seconds(b.before.slowestRankSeconds) : tr("(invalid split)");
    const QString beforePeak = b.before.valid ? display::bytes(double(b.before.peakBytes)) : tr("(invalid split)");
    if (b.plan != m_plan)
        pushEdit(layoutField, b.plan, tr("Balance pipeline stages: %1").arg(fromStd(b.layout)), false);
    showBalanceNote(tr("Slowest stage %1 → %2 per microbatch (forward + backward); peak memory %3 → %4.")
                        .arg(before, display::seconds(b.after.slowestRankSeconds), beforePeak, peak),
        false);
}

void PlanEditorPage::toggleRecomputeModule(int field)
{
    if (m_refreshing) return;
    Plan next = m_plan;
    std::vector<std::string>& chosen = next.training.recomputeModules;
    chosen.clear();
    for (const ModuleBox& m : m_recomputeModules)
        if (m.box->isChecked()) chosen.push_back(m.name.toStdString());
    // core_attn alone is the default, kept as an empty list: ticking a module and unticking it again gives the plan
    // back as it was. Unticking the last box leaves core_attn, which refreshFields() shows ticked again.
    if (chosen == std::vector<std::string> { "core_attn" }) chosen.clear();
    normalise(next, m_fields[size_t(field)].path);
    if (next == m_plan) {
        refreshFields();
        return;
    }
    QStringList names;
    for (const std::string& name : chosen)
        names << fromStd(name);
    const QString value = names.isEmpty() ? QStringLiteral("core_attn") : names.join(QStringLiteral(", "));
    pushEdit(field, std::move(next), tr("Set %1 to %2").arg(tr(m_fields[size_t(field)].text), value), false);
}

void PlanEditorPage::showBalanceNote(const QString& text, bool alarm)
{
    m_balanceNote->setText(text);
    setTextColor(m_balanceNote, alarm ? Theme::alarmText() : Theme::ink());
    m_balanceNote->setVisible(!text.isEmpty());
}

void PlanEditorPage::normalise(Plan& plan, const QString& path) const
{
    if (m_autoDp->isChecked()) plan.parallel.dp = impliedDp(plan);
    if (path.startsWith(QLatin1String("model.")) && path != QLatin1String("model.preset")) {
        ModelSpec& m = plan.model;
        // A model that becomes MoE starts from the loader's defaults rather than from zeros.
        applyModelDefaults(m);
        const std::string preset = matchingPreset(m);
        if (preset != m.preset) {
            m.preset = preset;
            if (const ModelPreset* p = PresetCatalog::builtin().model(preset)) m.name = p->spec.name;
        }
    }
}

void PlanEditorPage::applyPlan(const Plan& plan)
{
    m_plan = plan;
    // The balance note speaks of one layout: it goes with it (an undo, another edit).
    if (m_plan.parallel.layout != m_balancedLayout) showBalanceNote({}, false);
    refreshFields();
    showIssues();
    if (m_document) {
        m_applying = true;
        m_document->setPlan(plan);
        m_applying = false;
    }
}

void PlanEditorPage::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_realityCheck->setDocument(document);
    if (document) {
        connect(document, &PlanDocument::planEdited, this, [this] {
            if (!m_applying) followDocumentPlan();
        });
        connect(document, &PlanDocument::planReplaced, this, &PlanEditorPage::followDocumentPlan);
        connect(document, &PlanDocument::predictionChanged, this, &PlanEditorPage::showPrediction);
    }
    followDocumentPlan();
    showPrediction();
}

void PlanEditorPage::followDocumentPlan()
{
    // A plan from elsewhere (a file): the edits made so far belong to another plan.
    m_undoStack->clear();
    m_plan = m_document ? m_document->plan() : Plan {};
    m_content->setEnabled(m_document && m_document->hasPlan());
    {
        const QSignalBlocker block(m_autoDp);
        m_autoDp->setChecked(m_plan.parallel.dp == impliedDp(m_plan));
    }
    refreshFields();
    showIssues();
}

// --- showing --------------------------------------------------------------------------------------------

void PlanEditorPage::refreshFields()
{
    const bool was = m_refreshing;
    m_refreshing = true;
    for (const Field& f : m_fields)
        if (f.show) f.show();
    updateDependentFields();
    m_dpFormula->setText(tr("= %1 / (tp*pp*cp)").arg(m_plan.cluster.gpus()));
    m_refreshing = was;
}

void PlanEditorPage::updateDependentFields()
{
    const Plan& p = m_plan;
    auto enable = [this](std::initializer_list<const char*> paths, bool on) {
        for (const char* path : paths)
            fieldWidget(QLatin1String(path))->setEnabled(on);
    };
    // Routing settings mean nothing for a dense model.
    enable({ "model.moe.topK", "model.moe.expertFfnHidden", "model.moe.sharedExperts", "model.moe.denseLayers",
               "model.moe.routerBias", "model.moe.capacityFactor", "model.moe.dispatcher", "model.moe.groupedGemm",
               "model.moe.syncFree", "model.moe.imbalance", "parallel.etp" },
        p.model.isMoe());
    // The all-to-alls it overlaps exist only with experts spread over ep > 1 ranks.
    enable({ "training.overlapMoeComm" }, p.model.isMoe() && p.parallel.ep > 1);
    // The host: only a dropless dispatcher without sync-free dispatch syncs, and only graphs are launched as graphs.
    enable({ "training.host.syncSeconds" }, p.model.isMoe() && moeSyncsHost(p.model.moe));
    enable({ "training.host.graphLaunchSeconds" }, p.training.host.cudaGraphs != CudaGraphs::None);
    enable({ "model.moe.sharedExpertFfnHidden" }, p.model.isMoe() && p.model.moe.sharedExperts > 0);
    // The latent's rank switches MLA on; its other sizes wait for it, and its head sizes replace the model's.
    enable({ "model.mla.qLoraRank", "model.mla.qkNopeHeadDim", "model.mla.qkRopeHeadDim", "model.mla.vHeadDim" },
        p.model.mla.enabled());
    enable({ "model.headDim" }, !p.model.mla.enabled());
    enable({ "training.fp8Recipe", "training.fp8ParamGather" }, p.training.precision == Precision::FP8);
    enable({ "training.recomputeModules" }, p.training.recompute == Recompute::Selective);
    enable({ "training.recomputeLayers", "training.recomputeMethod" }, p.training.recompute == Recompute::Full);
    // The host link carries offloaded optimizer state and activations; host memory only the optimizer's step.
    const OffloadSpec& o = p.training.offload;
    enable({ "training.offload.pcieBandwidth" }, o.optimizerFraction > 0 || o.activationLayers > 0);
    enable({ "training.offload.hostBandwidth" }, o.optimizerFraction > 0);

    // What a 0 stands for, with the value it takes now.
    const std::int64_t perHead = p.model.heads > 0 ? p.model.hidden / p.model.heads : p.model.hidden;
    spinBox(QStringLiteral("model.headDim"))
        ->setSpecialValueText(p.model.mla.enabled() ? tr("set by MLA") : tr("= hidden / heads (%1)").arg(perHead));
    spinBox(QStringLiteral("parallel.etp"))->setSpecialValueText(tr("= tp (%1)").arg(p.parallel.tp));
    // A sync and a graph launch cost one kernel's issue unless given: the kernel's time as it stands.
    const double kernelMicroseconds
        = (p.training.host.kernelSeconds > 0 ? p.training.host.kernelSeconds : kDefaultKernelIssueSeconds) * 1e6;
    for (const char* path : { "training.host.syncSeconds", "training.host.graphLaunchSeconds" })
        doubleSpinBox(QLatin1String(path))
            ->setSpecialValueText(tr("= one kernel's issue (%1 µs)").arg(kernelMicroseconds, 0, 'g', 4));
}

void PlanEditorPage::showIssues()
{
    // No plan open (a file that could not be read): nothing to check, the editor is empty, not wrong.
    m_issues = m_document && m_document->hasPlan() ? validate(m_plan) : Issues {};
    std::vector<QStringList> plain(m_fields.size());
    std::vector<QStringList> rich(m_fields.size());
    QStringList other;
    int errors = 0, warnings = 0;
    for (const Issue& issue : m_issues) {
        const bool error = issue.severity == Severity::Error;
        (error ? errors : warnings)++;
        const QString path = fromStd(issue.path);
        const QString message = CoreText::text(issue);
        const QString color = (error ? Theme::alarmText() : warningColor()).name();
        const QString line
            = QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color, message.toHtmlEscaped());
        const int index = fieldIndex(displayPath(path));
        if (index < 0) {
            other << QStringLiteral("<span style=\"color:%1\">%2: %3</span>")
                         .arg(color, path.toHtmlEscaped(), message.toHtmlEscaped());
            continue;
        }
        // A message about a field shown under its parent says which one it means.
        plain[size_t(index)] << (path == m_fields[size_t(index)].path
                ? message
                : path + QStringLiteral(": ") + message);
        rich[size_t(index)] << (path == m_fields[size_t(index)].path
                ? line
                : QStringLiteral("<span style=\"color:%1\">%2: %3</span>")
                      .arg(color, path.toHtmlEscaped(), message.toHtmlEscaped()));
    }
    m_errorTexts.assign(m_fields.size(), QString());
    for (size_t i = 0; i < m_fields.size(); ++i) {
        const Field& f = m_fields[i];
        m_errorTexts[i] = plain[i].join(QLatin1Char('\n'));
        f.error->setText(rich[i].join(QStringLiteral("<br>")));
        f.error->setVisible(!plain[i].isEmpty());
        if (f.editor)
            f.editor->setToolTip(plain[i].isEmpty() ? (f.tip ? tr(f.tip) : QString()) : m_errorTexts[i]);
    }
    m_otherIssues->setText(other.join(QStringLiteral("<br>")));
    m_otherIssues->setVisible(!other.isEmpty());

    if (!m_document || !m_document->hasPlan()) {
        m_summary->setText(tr("No plan open"));
        setTextColor(m_summary, palette::grey());
        return;
    }
    // Spelled out rather than "%n error(s)": there is no English translation file to pick the plural.
    QString summary = errors == 0 ? tr("valid") : errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors);
    if (warnings > 0)
        summary = warnings == 1 ? tr("%1, 1 warning").arg(summary)
                                : tr("%1, %2 warnings").arg(summary).arg(warnings);
    m_summary->setText(summary);
    setTextColor(m_summary, errors > 0 ? Theme::alarmText() : validColor());
}

void PlanEditorPage::showPrediction()
{
    const auto prediction = m_document ? m_document->prediction() : nullptr;
    if (!prediction || !m_document->hasPlan()) {
        m_predictionLine->clear();
        return;
    }
    if (!prediction->valid) {
        m_predictionLine->setText(tr("No prediction: the plan is invalid."));
        setTextColor(m_predictionLine, palette::grey());
        return;
    }
    QString line = tr("Peak memory %1 of %2 GiB per GPU (%3); step %4; MFU %5 %")
                       .arg(units::toGiB(double(prediction->peakBytes)), 0, 'f', 2)
                       .arg(units::toGiB(double(prediction->capacityBytes)), 0, 'f', 2)
                       .arg(prediction->fits ? tr("fits") : tr("does not fit"))
                       .arg(fromStd(units::formatSeconds(prediction->stepSeconds)))
                       .arg(prediction->mfu * 100, 0, 'f', 1);
    const Plan& predicted = m_document->predictedPlan();
    if (predicted.training.tokens > 0)
        line += tr("; %1 days for %2 tokens")
                    .arg(prediction->trainingDays, 0, 'f', 1)
                    .arg(QString::number(predicted.training.tokens, 'g', 3)
                             .replace(QStringLiteral("e+"), QStringLiteral("e")));
    m_predictionLine->setText(line);
    setTextColor(m_predictionLine, prediction->fits ? Theme::ink() : Theme::alarmText());
}

void PlanEditorPage::fillZeroItems()
{
    const char* names[] = { QT_TR_NOOP("0: off"), QT_TR_NOOP("1: optimizer states"),
        QT_TR_NOOP("2: + gradients"), QT_TR_NOOP("3: + parameters (FSDP)") };
    for (int i = 0; i < m_zero->count() && i < 4; ++i)
        m_zero->setItemText(i, tr(names[i]));
}

void PlanEditorPage::retranslate()
{
    for (const auto& s : m_sections)
        s->box->setTitle(tr(s->title));
    m_realityBox->setTitle(tr("Reality check of a claim"));
    for (const Field& f : m_fields) {
        const QString text = f.text ? tr(f.text) : QString();
        if (auto* check = qobject_cast<QCheckBox*>(f.editor))
            check->setText(text);
        else if (f.label)
            f.label->setText(text);
        if (f.editor && f.error->isHidden()) f.editor->setToolTip(f.tip ? tr(f.tip) : QString());
    }
    m_modelPreset->setItemText(m_modelPreset->count() - 1, tr("custom"));
    spinBox(QStringLiteral("model.moe.experts"))->setSpecialValueText(tr("none (dense)"));
    spinBox(QStringLiteral("parallel.firstStageLayers"))->setSpecialValueText(tr("even split"));
    spinBox(QStringLiteral("parallel.lastStageLayers"))->setSpecialValueText(tr("even split"));
    spinBox(QStringLiteral("model.mla.kvLoraRank"))->setSpecialValueText(tr("off (no MLA)"));
    spinBox(QStringLiteral("model.mla.qLoraRank"))->setSpecialValueText(tr("none: queries from h"));
    doubleSpinBox(QStringLiteral("model.moe.capacityFactor"))->setSpecialValueText(tr("dropless"));
    spinBox(QStringLiteral("training.recomputeLayers"))->setSpecialValueText(tr("every layer"));
    spinBox(QStringLiteral("training.offload.activationLayers"))->setSpecialValueText(tr("none"));
    for (const char* path : { "training.offload.pcieBandwidth", "training.offload.hostBandwidth" })
        doubleSpinBox(QLatin1String(path))->setSpecialValueText(tr("default"));
    doubleSpinBox(QStringLiteral("training.host.kernelSeconds"))
        ->setSpecialValueText(tr("default (%1 µs)").arg(kDefaultKernelIssueSeconds * 1e6, 0, 'g', 4));
    spinBox(QStringLiteral("training.host.launchQueue"))->setSpecialValueText(tr("default (%1)").arg(kDefaultLaunchQueue));
    for (const ModuleBox& m : m_recomputeModules)
        m.box->setToolTip(tr(m.tip));
    m_autoDp->setText(tr("auto"));
    m_balance->setText(tr("Balance stages"));
    m_balance->setToolTip(tr("Set the layout to the split that makes the slowest pipeline stage fastest while every "
                             "stage fits in GPU memory (one undo step; planscope-cli balance does the same)"));
    showBalanceNote({}, false);
    m_autoDp->setToolTip(tr("dp follows the GPU count: GPUs / (tp*pp*cp)"));
    fillZeroItems();
    refreshFields();
    showIssues();
    showPrediction();
}

void PlanEditorPage::arrangeColumns(int count)
{
    enum { Model, Mla, Moe, Cluster, Parallel, Training, Offload, Reality };
    // Columns of about equal height: the model with its attention and experts beside the cluster and its parallelism.
    std::vector<std::vector<int>> columns;
    if (count >= 3)
        columns = { { Model, Mla, Moe }, { Cluster, Parallel }, { Training, Offload, Reality } };
    else if (count == 2)
        columns = { { Model, Mla, Moe, Cluster }, { Parallel, Training, Offload, Reality } };
    else
        columns = { { Model, Mla, Moe, Cluster, Parallel, Training, Offload, Reality } };
    m_columnCount = int(columns.size());

    while (QLayoutItem* item = m_columns->takeAt(0)) {
        if (QLayout* column = item->layout()) {
            while (QLayoutItem* inner = column->takeAt(0))
                delete inner; // widget items and stretches; the boxes themselves stay
        }
        delete item;
    }
    for (const auto& boxes : columns) {
        auto* column = new QVBoxLayout;
        for (int b : boxes)
            column->addWidget(m_boxes[size_t(b)]);
        column->addStretch(1);
        m_columns->addLayout(column, 1);
    }
}

int PlanEditorPage::widthFor(int count) const
{
    auto minWidth = [this](std::initializer_list<int> boxes) {
        int w = 0;
        for (int b : boxes)
            w = std::max(w, m_boxes[size_t(b)]->minimumSizeHint().width());
        return w;
    };
    const QMargins margins = m_columns->contentsMargins();
    const int spacing = std::max(0, m_columns->spacing());
    int w = margins.left() + margins.right();
    // The boxes as arrangeColumns() places them.
    if (count >= 3)
        w += minWidth({ 0, 1, 2 }) + minWidth({ 3, 4 }) + minWidth({ 5, 6, 7 }) + 2 * spacing;
    else
        w += minWidth({ 0, 1, 2, 3 }) + minWidth({ 4, 5, 6, 7 }) + spacing;
    // Room for the vertical scroll bar that a shorter window shows.
    return w + style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

void PlanEditorPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const int count = width() >= widthFor(3) ? 3 : width() >= widthFor(2) ? 2 : 1;
    if (count != m_columnCount) arrangeColumns(count);
}

void PlanEditorPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

// --- lookup ---------------------------------------------------------------------------------------------

int PlanEditorPage::fieldIndex(const QString& path) const
{
    for (size_t i = 0; i < m_fields.size(); ++i)
        if (m_fields[i].path == path) return int(i);
    return -1;
}

QString PlanEditorPage::displayPath(const QString& path) const
{
    QString p = path;
    while (!p.isEmpty()) {
        if (fieldIndex(p) >= 0) return p;
        const qsizetype dot = p.lastIndexOf(QLatin1Char('.'));
        p = dot < 0 ? QString() : p.left(dot);
    }
    return {};
}

QString PlanEditorPage::fieldError(const QString& path) const
{
    const int i = fieldIndex(displayPath(path));
    return i >= 0 && size_t(i) < m_errorTexts.size() ? m_errorTexts[size_t(i)] : QString();
}

QWidget* PlanEditorPage::fieldWidget(const QString& path) const
{
    const int i = fieldIndex(path);
    return i >= 0 ? m_fields[size_t(i)].editor : nullptr;
}

QSpinBox* PlanEditorPage::spinBox(const QString& path) const
{
    return qobject_cast<QSpinBox*>(fieldWidget(path));
}

QDoubleSpinBox* PlanEditorPage::doubleSpinBox(const QString& path) const
{
    return qobject_cast<QDoubleSpinBox*>(fieldWidget(path));
}

QComboBox* PlanEditorPage::comboBox(const QString& path) const
{
    return qobject_cast<QComboBox*>(fieldWidget(path));
}

QCheckBox* PlanEditorPage::checkBox(const QString& path) const
{
    return qobject_cast<QCheckBox*>(fieldWidget(path));
}

QLineEdit* PlanEditorPage::lineEdit(const QString& path) const
{
    return qobject_cast<QLineEdit*>(fieldWidget(path));
}

QCheckBox* PlanEditorPage::recomputeModuleCheck(const QString& module) const
{
    for (const ModuleBox& m : m_recomputeModules)
        if (m.name == module) return m.box;
    return nullptr;
}

QSpinBox* PlanEditorPage::degreeSpin(const QString& name) const
{
    return spinBox(QStringLiteral("parallel.") + name);
}

QString PlanEditorPage::pageTitle() const
{
    return tr("Plan");
}

bool PlanEditorPage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    return WidgetExporter::exportWidget(this, path, error);
}

} // namespace planscope
