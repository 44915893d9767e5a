// The main window's pages in one list, in tab order: the name --view takes (each page class's kPageName, what its
// pageName() returns), whether the report draws it, and how to make one. The window, its View menu and shortcuts,
// --view, presentation mode and the report read this list; a new page is one row here.
#pragma once

#include <QStringView>

#include <span>

class QWidget;

namespace planscope {

class Page;

struct PageKind {
    const char* name;
    bool inReport;                            // a picture page of the PDF/HTML report (docs/FORMATS.md section 9)
    QWidget* (*make)(QWidget* parent, Page** page); // a new page; *page is the same object through its Page interface
};

std::span<const PageKind> pageKinds();
const PageKind* pageKind(QStringView name);

} // namespace planscope
