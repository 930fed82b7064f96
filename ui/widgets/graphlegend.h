#pragma once

#include <QWidget>

class QGridLayout;

namespace MemoryGraph::Ui {

/// Explains the graph canvas: fill colour = node type, outline = tier, lock = private lane.
/// Drawn with the canvas's own glyph painter, so the legend never drifts from the picture.
class GraphLegend : public QWidget
{
    Q_OBJECT
public:
    explicit GraphLegend(QWidget *parent = nullptr, int columns = 2);

    int columns() const { return m_columns; }
    /// Number of entries (types, tiers and the lane badge).
    int entryCount() const { return m_entries; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();

    int m_columns;
    int m_entries = 0;
    QGridLayout *m_grid = nullptr;
};

} // namespace MemoryGraph::Ui
