#include "ui/widgets/graphstyle.h"

#include "ui/theme.h"

#include <QHash>
#include <QIcon>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

namespace MemoryGraph::Ui::GraphStyle {

QStringList knownTypes()
{
    return {QStringLiteral("event"),     QStringLiteral("entity"),    QStringLiteral("topic"),
            QStringLiteral("concept"),   QStringLiteral("rule"),      QStringLiteral("evidence"),
            QStringLiteral("procedure"), QStringLiteral("self_model")};
}

QStringList knownTiers()
{
    return {QStringLiteral("hot"), QStringLiteral("warm"), QStringLiteral("cold"),
            QStringLiteral("archive")};
}

QColor typeColor(const QString &type)
{
    // Hues spread around the wheel with similar lightness, so no type shouts and each stays
    // distinguishable against white and against the dark base colour.
    if (type == QLatin1String("event"))
        return QColor(0x4f, 0x8f, 0xe8); // blue
    if (type == QLatin1String("entity"))
        return QColor(0x35, 0xb0, 0x7a); // green
    if (type == QLatin1String("topic"))
        return QColor(0xf0, 0xa2, 0x2e); // amber
    if (type == QLatin1String("concept"))
        return QColor(0x9d, 0x72, 0xe6); // violet
    if (type == QLatin1String("rule"))
        return QColor(0xe5, 0x56, 0x4f); // red
    if (type == QLatin1String("evidence"))
        return QColor(0x2c, 0xb8, 0xc9); // cyan
    if (type == QLatin1String("procedure"))
        return QColor(0xdc, 0x6f, 0xb4); // pink
    if (type == QLatin1String("self_model"))
        return QColor(0xa8, 0xb8, 0x32); // olive
    return QColor(0x95, 0x9a, 0xa0);     // grey: a type the palette does not know
}

QPen tierPen(const QString &tier, const QColor &colour, qreal scale)
{
    QPen pen(colour);
    pen.setCosmetic(false);
    pen.setCapStyle(Qt::FlatCap);
    if (tier == QLatin1String("hot")) {
        pen.setWidthF(3.5 * scale);
    } else if (tier == QLatin1String("cold")) {
        pen.setWidthF(1.6 * scale);
        pen.setDashPattern({3.0, 2.0});
    } else if (tier == QLatin1String("archive")) {
        pen.setWidthF(1.8 * scale);
        pen.setCapStyle(Qt::RoundCap);
        pen.setDashPattern({0.01, 2.4});
    } else {
        pen.setWidthF(1.6 * scale); // warm, and anything unknown
    }
    return pen;
}

QColor outlineColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xee, 0xee, 0xee) : QColor(0x26, 0x28, 0x2c);
}

void paintLockBadge(QPainter *painter, const QPointF &centre, qreal size, const QPalette &palette)
{
    const QColor ink = outlineColor(palette);
    const QColor paper = palette.color(QPalette::Base);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);

    // A disc behind the padlock keeps it readable over the node fill and over edges.
    painter->setPen(QPen(ink, size * 0.08));
    painter->setBrush(paper);
    painter->drawEllipse(centre, size * 0.62, size * 0.62);

    const qreal bodyW = size * 0.56;
    const qreal bodyH = size * 0.40;
    const QRectF body(centre.x() - bodyW / 2, centre.y() - bodyH * 0.15, bodyW, bodyH);
    const qreal shackleW = bodyW * 0.62;
    const QRectF shackle(centre.x() - shackleW / 2, body.top() - shackleW * 0.72, shackleW,
                         shackleW * 1.2);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(ink, size * 0.10, Qt::SolidLine, Qt::RoundCap));
    painter->drawArc(shackle, 0, 180 * 16);
    painter->setPen(Qt::NoPen);
    painter->setBrush(ink);
    painter->drawRoundedRect(body, size * 0.06, size * 0.06);
    painter->restore();
}

void paintNodeGlyph(QPainter *painter, const QPointF &centre, qreal radius, const QString &type,
                    const QString &tier, bool isPrivate, const QPalette &palette, qreal penScale,
                    const QColor &fill)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(fill.isValid() ? fill : typeColor(type));
    painter->setPen(tierPen(tier, outlineColor(palette), penScale > 0 ? penScale : radius / 12.0));
    painter->drawEllipse(centre, radius, radius);
    painter->restore();
    if (isPrivate) {
        const qreal offset = radius * 0.78;
        paintLockBadge(painter, centre + QPointF(offset, -offset), radius * 0.95, palette);
    }
}

QIcon typeIcon(const QString &type)
{
    static QHash<QString, QIcon> cache;
    const QString key = knownTypes().contains(type) ? type : QString();
    const auto it = cache.constFind(key);
    if (it != cache.constEnd())
        return *it;
    QIcon icon;
    for (const int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const QColor fill = typeColor(key);
        // A darker rim of the same hue reads on light and dark backgrounds alike.
        painter.setPen(QPen(fill.darker(150), size / 12.0));
        painter.setBrush(fill);
        const qreal inset = size * 0.22;
        painter.drawEllipse(QRectF(inset, inset, size - 2 * inset, size - 2 * inset));
        painter.end();
        icon.addPixmap(pixmap);
    }
    cache.insert(key, icon);
    return icon;
}

QPixmap glyphPixmap(const QString &type, const QString &tier, bool isPrivate, int size,
                    const QPalette &palette, qreal devicePixelRatio)
{
    QPixmap pixmap(QSize(size, size) * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    if (isPrivate) {
        // The badge is the point here: draw it at a readable size over a plain node.
        const qreal radius = size * 0.26;
        const QPointF centre(size * 0.36, size * 0.62);
        paintNodeGlyph(&painter, centre, radius, type, tier, false, palette, 1.0,
                       palette.color(QPalette::Mid));
        paintLockBadge(&painter, QPointF(size * 0.68, size * 0.34), size * 0.52, palette);
        return pixmap;
    }
    const qreal radius = size * 0.34;
    // Tier swatches: a plain disc, so only the outline tells them apart, at the graph's 100 % pen.
    const QColor fill = type.isEmpty() ? palette.color(QPalette::Button) : QColor();
    paintNodeGlyph(&painter, QPointF(size / 2.0, size / 2.0), radius, type, tier, false, palette,
                   type.isEmpty() ? 1.0 : -1.0, fill);
    return pixmap;
}

} // namespace MemoryGraph::Ui::GraphStyle
