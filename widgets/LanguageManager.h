// The UI language, switchable at run time: installs PlanScope's embedded translation (:/i18n) and, where
// the system has it, Qt's own; every widget then gets QEvent::LanguageChange and retranslates itself.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTranslator>

namespace planscope {

class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject* parent = nullptr);

    // Language codes with a translation, "en" (the source language) first.
    static QStringList availableLanguages();
    // The language's own name, e.g. "简体中文" for zh_CN: shown untranslated in the Language menu.
    static QString nativeName(const QString& code);
    // The embedded .qm of a language, e.g. ":/i18n/planscope_zh_CN.qm".
    static QString translationResource(const QString& code);

    // Returns false (and keeps the current language) when the code has no translation.
    bool setLanguage(const QString& code);
    QString language() const { return m_language; }

Q_SIGNALS:
    void languageChanged(const QString& code);

private:
    QTranslator m_app;
    QTranslator m_qt;
    QString m_language = QStringLiteral("en");
};

} // namespace planscope
