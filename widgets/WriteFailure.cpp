#include "WriteFailure.h"

#include "util/AtomicFile.h"

#include <QFile>
#include <QSaveFile>

#include <sys/stat.h>

namespace planscope {

QString whyWriteFailed(const QString& path, const QString& qtError)
{
    const QString system = QString::fromLocal8Bit(whyCannotWrite(QFile::encodeName(path).toStdString()));
    if (system.isEmpty() || qtError.contains(system, Qt::CaseInsensitive)) return qtError;
    // Qt says "Unknown error" where the write's errno was lost (a short write inside its buffer flush).
    if (qtError.isEmpty() || qtError == QLatin1String("Unknown error")) return system;
    return QStringLiteral("%1 (%2)").arg(system, qtError);
}

bool commitSaveFile(QSaveFile& file)
{
    // Not committed, the temporary file is discarded when `file` is destroyed, and errorString() keeps the flush's reason.
    if (file.error() != QFileDevice::NoError || !file.flush()) return false;
    // Every byte written through the device is in the file: a short write that a writer (an image or PDF encoder)
    // did not check shows as a file shorter than the device's position (fstat(2)).
    struct stat st {};
    if (file.handle() >= 0 && ::fstat(file.handle(), &st) == 0 && st.st_size != file.pos()) return false;
    return file.commit();
}

bool saveBytes(const QString& path, const QByteArray& bytes, QString* why)
{
    QSaveFile file(path);
    // A short write (a full disk, a file size limit) is a failure too.
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && commitSaveFile(file)) return true;
    if (why) *why = whyWriteFailed(path, file.errorString());
    return false;
}

} // namespace planscope
