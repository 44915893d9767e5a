#include "LanguageManager.h"

#include <QCoreApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QLocale>

namespace planscope {

LanguageManager::LanguageManager(QObject* parent)
    : QObject(parent)
{
}

QStringList LanguageManager::availableLanguages()
{
    return { QStringLiteral("en"), QStringLiteral("zh_CN") };
}

QString LanguageManager::nativeName(const QString& code)
{
    if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
    if (code == QLatin1String("en")) return QStringLiteral("English");
    return QLocale(code).nativeLanguageName();
}

QString LanguageManager::translationResource(const QString& code)
{
    return QStringLiteral(":/i18n/planscope_%1.qm").arg(code);
}

bool LanguageManager::setLanguage(const QString& code)
{
    if (code == m_language) return true;
    if (code != QLatin1String("en") && !QFile::exists(translationResource(code))) return false;

    QCoreApplication::removeTranslator(&m_app);
    QCoreApplication::removeTranslator(&m_qt);
    if (code != QLatin1String("en")) {
        if (!m_app.load(translationResource(code))) return false;
        QCoreApplication::installTranslator(&m_app);
        // Qt's own strings (standard buttons, file dialogs) where the system ships them; optional.
        if (m_qt.load(QStringLiteral("qtbase_") + code, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
    }
    m_language = code;
    Q_EMIT languageChanged(code);
    return true;
}

} // namespace planscope
