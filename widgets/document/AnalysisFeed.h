// How a view follows the open plan: it draws an Analysis (core/analysis/Analysis.h), the one value every number
// comes from, and an AnalysisFeed hands it the document's newest one, now and each time the document publishes
// another (PlanDocument::predictionChanged). A view without a document (the report's, the Compare page's columns,
// a test's) is given its analysis directly.
#pragma once

#include "analysis/Analysis.h"

#include <QMetaObject>
#include <QObject>
#include <functional>
#include <memory>

namespace planscope {

class PlanDocument;

class AnalysisFeed {
public:
    using Show = std::function<void(std::shared_ptr<const Analysis>)>;
    AnalysisFeed() = default;
    AnalysisFeed(const AnalysisFeed&) = delete;
    AnalysisFeed& operator=(const AnalysisFeed&) = delete;
    ~AnalysisFeed() { QObject::disconnect(m_connection); }

    // Stops feeding the previous document; then calls show() with `document`'s analysis (null without one) and again
    // with each analysis it publishes, in `context`'s thread and lifetime.
    void follow(PlanDocument* document, QObject* context, Show show);
    PlanDocument* document() const { return m_document; }

private:
    QMetaObject::Connection m_connection;
    PlanDocument* m_document = nullptr;
};

} // namespace planscope
