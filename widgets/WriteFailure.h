// Why a file could not be written, for a message that names the reason a user can act on.
#pragma once

#include <QString>

class QSaveFile;

namespace planscope {

// The system's reason where it can say one (core/util/AtomicFile.h whyCannotWrite(): a read-only file system, a
// folder this process may not write, a full disk), with Qt's errorString() beside it when that says something else;
// Qt's alone otherwise.
QString whyWriteFailed(const QString& path, const QString& qtError);

// QSaveFile::commit() that fails when the bytes still in its buffer cannot be written. Qt 6.4's commit() flushes that
// buffer while closing and renames the file over the target even when the flush failed (a full disk, a file size
// limit), leaving a truncated file under the final name; this flushes first and does not commit on failure, so the
// target keeps its old bytes. errorString() says why.
bool commitSaveFile(QSaveFile& file);

// Writes `bytes` to `path` atomically (QSaveFile, commitSaveFile()): the file holds the old bytes or all the new ones.
// On failure returns false with `why` (whyWriteFailed()).
bool saveBytes(const QString& path, const QByteArray& bytes, QString* why);

} // namespace planscope
