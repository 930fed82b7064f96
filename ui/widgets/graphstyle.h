#pragma once

#include <QColor>
#include <QPen>
#include <QPointF>
#include <QStringList>

class QIcon;
class QPainter;
class QPalette;
class QPixmap;

namespace MemoryGraph::Ui::GraphStyle {

/// Node types with a colour of their own, in legend order.
QStringList knownTypes();
/// Memory tiers, hottest first.
QStringList knownTiers();

/// Fill colour for a node type: mid-tone hues that read on both the light and the dark palette.
/// Unknown types share a neutral grey.
QColor typeColor(const QString &type);

/// Outline for a tier: hot thick, warm normal, cold dashed, archive dotted. `scale` widens the
/// pen (1 = the graph's own size).
QPen tierPen(const QString &tier, const QColor &colour, qreal scale = 1.0);

/// Outline colour that contrasts with the view background of `palette`.
QColor outlineColor(const QPalette &palette);

/// A small padlock centred on `centre`, `size` pixels tall, marking a private node.
void paintLockBadge(QPainter *painter, const QPointF &centre, qreal size, const QPalette &palette);

/// One node glyph exactly as the graph draws it (circle, tier outline, optional lock).
/// `penScale` overrides the outline scale (default: radius / 12, the graph's own proportion);
/// `fill` overrides the type colour.
void paintNodeGlyph(QPainter *painter, const QPointF &centre, qreal radius, const QString &type,
                    const QString &tier, bool isPrivate, const QPalette &palette,
                    qreal penScale = -1.0, const QColor &fill = QColor());

/// A small filled circle in the type's colour, for lists and tables (cached; GUI thread only).
QIcon typeIcon(const QString &type);

/// A legend swatch on a transparent pixmap of `size` logical pixels: a type's colour
/// (`type`), a tier's outline on a plain disc (`tier` with an empty type), or the lock badge.
QPixmap glyphPixmap(const QString &type, const QString &tier, bool isPrivate, int size,
                    const QPalette &palette, qreal devicePixelRatio);

} // namespace MemoryGraph::Ui::GraphStyle
