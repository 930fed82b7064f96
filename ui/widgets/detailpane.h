#pragma once

#include <QStringList>

class QLabel;
class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace MemoryGraph::Ui {

// The building blocks the read-only detail panes share (node inspector, decision detail,
// "Try it" results, consolidation preview), so they look alike.

/// A bold caption above a section of a pane ("Fields", "Denied (2)").
QLabel *sectionLabel(const QString &text, QWidget *parent);

/// The pane's headline: bold, `scale` times the normal size, selectable.
QLabel *headlineLabel(QWidget *parent, double scale = 1.25);

/// A section of a pane: its title above its body (and an optional line between them), the
/// body taking the height; splitters stack these.
QWidget *titledSection(QWidget *title, QWidget *body, QWidget *parent, QWidget *extra = nullptr);

/// A small read-only table: whole rows selected one at a time, alternating rows, no row
/// numbers, the last column stretched.
QTableWidget *createDetailTable(const QStringList &headers, const QString &objectName,
                                QWidget *parent);

/// A cell that can be selected but not edited; by default its text is its tooltip, since cells
/// are elided (pass false where the table's own tooltip should show instead).
QTableWidgetItem *readOnlyItem(const QString &text, bool textAsToolTip = true);

} // namespace MemoryGraph::Ui
