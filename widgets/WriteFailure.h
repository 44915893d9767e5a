// Why a file could not be written, for a message that names the reason a user can act on.
#pragma once

#include <QByteArray>
#include <QString>

namespace planscope {

// The system's reason where it can say one (core/util/AtomicFile.h whyCannotWrite(): a read-only file system, a
// folder this process may not write, a full disk), with Qt's errorString() beside it when that says something else;
// Qt's alone otherwise.
QString whyWriteFailed(const QString& path, const QString& qtError);

// Writes `bytes` to `path` atomically (QSaveFile, with the flush Qt 6.4 does not check): the file holds the old bytes
// or all the new ones. On failure returns false with `why` (whyWriteFailed()).
bool saveBytes(const QString& path, const QByteArray& bytes, QString* why);

} // namespace planscope
