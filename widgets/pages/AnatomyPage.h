// The layer anatomy page ("anatomy"): one transformer layer's operators, forward and backward, as a waterfall
// coloured by what bounds each op (LayerAnatomyView), with a switch to the output layer's (last stage). Its
// numbers are the Analysis' (Prediction::layerOps, outputOps), never computed here.
#pragma once

#include "pages/Page.h"
#include "document/AnalysisFeed.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QScrollArea;

namespace planscope {

class LayerAnatomyView;
class PlanDocument;

class AnatomyPage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit AnatomyPage(QWidget* parent = nullptr);

    static constexpr const char* kPageName = "anatomy";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    // Follows the document: each analysis it publishes is drawn (setAnalysis()).
    void setDocument(PlanDocument* document) override;
    // Draws this analysis' operators (null: no plan).
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;
    // The chart as on screen (its whole height, even where the page scrolls), or laid out at `size`; PNG, SVG
    // or PDF.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    LayerAnatomyView* view() const { return m_view; }
    // 0: one transformer layer, 1: the output layer.
    QComboBox* opsChoice() const { return m_which; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showAnalysis();

    QComboBox* m_which;
    QScrollArea* m_scroll;
    LayerAnatomyView* m_view;
    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis; // what is drawn
};

} // namespace planscope
