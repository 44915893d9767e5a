#include "WriteFailure.h"

#include "util/AtomicFile.h"

#include <QFile>
#include <QSaveFile>

namespace planscope {

QString whyWriteFailed(const QString& path, const QString& qtError)
{
    const QString system = QString::fromLocal8Bit(whyCannotWrite(QFile::encodeName(path).toStdString()));
    if (system.isEmpty() || qtError.contains(system, Qt::CaseInsensitive)) return qtError;
    // Qt says "Unknown error" where the write's errno was lost (a short write inside its buffer flush).
    if (qtError.isEmpty() || qtError == QLatin1String("Unknown error")) return system;
    return QStringLiteral("%1 (%2)").arg(system, qtError);
}

bool saveBytes(const QString& path, const QByteArray& bytes, QString* why)
{
    QSaveFile file(path);
    // One write whose length is checked (a short write: a full disk, a file size limit), then an explicit flush before
    // commit(): Qt 6.4's commit() flushes what is still buffered while closing and renames the file over the target
    // even when that flush failed, leaving a truncated file under the final name. Not committed, the temporary file
    // is discarded when `file` goes, and errorString() keeps the reason.
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.flush() && file.commit()) return true;
    if (why) *why = whyWriteFailed(path, file.errorString());
    return false;
}

} // namespace planscope
