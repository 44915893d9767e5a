#include "document/AnalysisFeed.h"

#include "document/PlanDocument.h"

namespace planscope {

void AnalysisFeed::follow(PlanDocument* document, QObject* context, Show show)
{
    QObject::disconnect(m_connection);
    m_document = document;
    if (document)
        m_connection = QObject::connect(document, &PlanDocument::predictionChanged, context,
            [document, show] { show(document->analysis()); });
    show(document ? document->analysis() : nullptr);
}

} // namespace planscope
