#include "ui/widgets/graphlegend.h"

#include "ui/widgets/graphstyle.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayoutItem>

namespace MemoryGraph::Ui {

GraphLegend::GraphLegend(QWidget *parent, int columns)
    : QWidget(parent), m_columns(std::max(1, columns))
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(2);
    rebuild();
}

void GraphLegend::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // The glyphs' outlines and badge follow the palette (light or dark theme).
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
}

void GraphLegend::rebuild()
{
    while (QLayoutItem *item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_entries = 0;

    const int glyph = fontMetrics().height() + 8;
    const qreal dpr = devicePixelRatioF();
    int row = 0;
    int column = 0;

    auto heading = [&](const QString &text) {
        if (column != 0) {
            ++row;
            column = 0;
        }
        auto *label = new QLabel(text, this);
        QFont font = label->font();
        font.setBold(true);
        label->setFont(font);
        m_grid->addWidget(label, row, 0, 1, m_columns);
        ++row;
    };
    auto entry = [&](const QPixmap &pixmap, const QString &text, const QString &tip) {
        auto *cell = new QWidget(this);
        auto *layout = new QHBoxLayout(cell);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(4);
        auto *icon = new QLabel(cell);
        icon->setPixmap(pixmap);
        icon->setFixedSize(glyph, glyph);
        layout->addWidget(icon);
        auto *label = new QLabel(text, cell);
        layout->addWidget(label, 1);
        cell->setToolTip(tip);
        m_grid->addWidget(cell, row, column);
        ++m_entries;
        if (++column == m_columns) {
            column = 0;
            ++row;
        }
    };

    heading(tr("Node type (fill)"));
    for (const QString &type : GraphStyle::knownTypes()) {
        entry(GraphStyle::glyphPixmap(type, QStringLiteral("warm"), false, glyph, palette(), dpr),
              type, tr("Nodes of type %1").arg(type));
    }
    heading(tr("Tier (outline)"));
    const QString neutral; // no type: a plain disc, so only the outline tells tiers apart
    const QStringList tierTips{tr("hot: thick outline"), tr("warm: normal outline"),
                               tr("cold: dashed outline"), tr("archive: dotted outline")};
    const QStringList tiers = GraphStyle::knownTiers();
    for (int i = 0; i < tiers.size(); ++i)
        entry(GraphStyle::glyphPixmap(neutral, tiers.at(i), false, glyph, palette(), dpr),
              tiers.at(i), tierTips.value(i));
    heading(tr("Lane"));
    entry(GraphStyle::glyphPixmap(neutral, QStringLiteral("warm"), true, glyph, palette(), dpr),
          tr("private"), tr("A lock marks nodes in the private lane; shared nodes have none"));
    m_grid->setRowStretch(row + 1, 1);
}

} // namespace MemoryGraph::Ui
