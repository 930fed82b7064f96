#include "ui/widgets/nodeinspector.h"

#include "ui/displayformat.h"
#include "ui/embeddingstate.h"
#include "ui/widgets/detailpane.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/statustext.h"

#include <QColor>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

enum EdgeColumn {
    EdgeType,
    EdgeDirection,
    EdgeOtherNode,
    EdgeWeight,
    EdgeConfidence,
    EdgeOtherId,
    EdgeColumnCount
};

constexpr int NodeIdRole = Qt::UserRole + 1;

/// Edge cells: the table's tooltip (double-click to open) shows instead of the text.
QTableWidgetItem *edgeItem(const QString &text)
{
    return readOnlyItem(text, false);
}

} // namespace

NodeInspector::NodeInspector(QWidget *parent) : QWidget(parent)
{
    m_stack = MessageStack::fill(this, createDetailPane(), QStringLiteral("inspectorMessage"));
    showMessage(tr("Select a node to inspect it."));
}

QWidget *NodeInspector::createDetailPane()
{
    auto *pane = new QWidget(this);
    createHeadline(pane);
    createFieldsTree(pane);
    createSlotsView(pane);
    createEdgesTable(pane);
    m_edgesTitle = sectionLabel(tr("Edges"), pane);

    auto *splitter = new QSplitter(Qt::Vertical, pane);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(titledSection(sectionLabel(tr("Fields"), pane), m_fields, pane));
    splitter->addWidget(titledSection(sectionLabel(tr("Slots"), pane), m_slots, pane));
    splitter->addWidget(titledSection(m_edgesTitle, m_edges, pane));
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 0, 0);
    titleRow->addWidget(m_titleLabel, 1);
    titleRow->addWidget(m_showInGraphButton, 0, Qt::AlignTop);
    layout->addLayout(titleRow);
    layout->addWidget(m_summaryLabel);
    layout->addWidget(splitter, 1);
    return pane;
}

/// The node's title with its "Show in graph" button, and its summary underneath.
void NodeInspector::createHeadline(QWidget *pane)
{
    m_titleLabel = headlineLabel(pane);
    m_titleLabel->setObjectName(QStringLiteral("inspectorTitle"));
    m_titleLabel->setWordWrap(true);

    m_showInGraphButton = new QToolButton(pane);
    m_showInGraphButton->setObjectName(QStringLiteral("showInGraphButton"));
    m_showInGraphButton->setText(tr("Show in &graph"));
    m_showInGraphButton->setToolTip(tr("Open the Graph page centred on this node"));
    m_showInGraphButton->setVisible(false);
    connect(m_showInGraphButton, &QToolButton::clicked, this, [this]() {
        if (!m_nodeId.isEmpty())
            Q_EMIT showInGraphRequested(m_nodeId);
    });

    m_summaryLabel = new QLabel(pane);
    m_summaryLabel->setObjectName(QStringLiteral("inspectorSummary"));
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

/// The node's columns as field/value rows.
void NodeInspector::createFieldsTree(QWidget *pane)
{
    m_fields = new QTreeWidget(pane);
    m_fields->setObjectName(QStringLiteral("inspectorFields"));
    m_fields->setColumnCount(2);
    m_fields->setHeaderLabels({tr("Field"), tr("Value")});
    m_fields->setRootIsDecorated(false);
    m_fields->setAlternatingRowColors(true);
    m_fields->setUniformRowHeights(true);
    m_fields->setTextElideMode(Qt::ElideMiddle);
    m_fields->header()->setStretchLastSection(true);
    m_fields->setColumnWidth(
        0, m_fields->fontMetrics().horizontalAdvance(QStringLiteral("producer_agent_id")) + 28);
}

/// The slot data as indented JSON.
void NodeInspector::createSlotsView(QWidget *pane)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_slots = new QPlainTextEdit(pane);
    m_slots->setObjectName(QStringLiteral("inspectorSlots"));
    m_slots->setReadOnly(true);
    m_slots->setFont(mono);
    m_slots->setLineWrapMode(QPlainTextEdit::NoWrap);
}

/// The node's edges; double-clicking one opens the node at its other end.
void NodeInspector::createEdgesTable(QWidget *pane)
{
    m_edges = createDetailTable({tr("Type"), tr("Direction"), tr("Other node"), tr("Weight"),
                                 tr("Confidence"), tr("Other node id")},
                                QStringLiteral("inspectorEdges"), pane);
    m_edges->setToolTip(tr("Double-click an edge to open the node at its other end"));
    const QFontMetrics fm = m_edges->fontMetrics();
    m_edges->setColumnWidth(EdgeType, fm.horizontalAdvance(QStringLiteral("derived_from")) + 20);
    m_edges->setColumnWidth(EdgeDirection, fm.horizontalAdvance(QStringLiteral("Direction")) + 20);
    m_edges->setColumnWidth(EdgeOtherNode, fm.horizontalAdvance(QLatin1Char('m')) * 12);
    m_edges->setColumnWidth(EdgeWeight, fm.horizontalAdvance(QStringLiteral("Weight")) + 24);
    m_edges->setColumnWidth(EdgeConfidence,
                            fm.horizontalAdvance(QStringLiteral("Confidence")) + 24);
    connect(m_edges, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const QString id = m_edges->item(row, EdgeType)->data(NodeIdRole).toString();
        if (!id.isEmpty())
            Q_EMIT nodeActivated(id);
    });
}

void NodeInspector::showDetail(const NodeDetail &detail)
{
    const NodeRecord &n = detail.node;
    m_nodeId = n.id;
    m_titleLabel->setText(n.title.isEmpty() ? tr("(untitled %1)").arg(n.type) : n.title);
    m_summaryLabel->setText(n.textSummary);
    m_summaryLabel->setVisible(!n.textSummary.isEmpty());
    fillFields(n);
    m_slots->setPlainText(
        n.slotData.isEmpty()
            ? QStringLiteral("{}")
            : QString::fromUtf8(QJsonDocument(n.slotData).toJson(QJsonDocument::Indented)));
    fillEdges(detail);
    m_stack->showContent();
}

void NodeInspector::showMessage(const QString &message)
{
    m_nodeId.clear();
    m_stack->showMessage(message);
}

void NodeInspector::showLoadFailure(const Error &error)
{
    showMessage(error.status == 404 ? tr("The node no longer exists.")
                                    : tr("Could not load the node:\n%1").arg(error.message));
}

void NodeInspector::setNodeTitles(const QHash<QString, QString> &titles)
{
    m_titles = titles;
}

void NodeInspector::setShowInGraphVisible(bool visible)
{
    m_showInGraphButton->setVisible(visible);
}

QString NodeInspector::titleText() const
{
    return hasNode() ? m_titleLabel->text() : QString();
}

QString NodeInspector::slotsText() const
{
    return hasNode() ? m_slots->toPlainText() : QString();
}

QString NodeInspector::messageText() const
{
    return m_stack->messageText();
}

int NodeInspector::edgeRowCount() const
{
    return m_edges->rowCount();
}

QString NodeInspector::fieldText(const QString &field) const
{
    for (int s = 0; s < m_fields->topLevelItemCount(); ++s) {
        const QTreeWidgetItem *section = m_fields->topLevelItem(s);
        for (int c = 0; c < section->childCount(); ++c) {
            if (section->child(c)->text(0) == field)
                return section->child(c)->text(1);
        }
    }
    return {};
}

QTreeWidgetItem *NodeInspector::addSection(const QString &title)
{
    auto *item = new QTreeWidgetItem(m_fields, {title});
    QFont font = item->font(0);
    font.setBold(true);
    item->setFont(0, font);
    item->setFirstColumnSpanned(true);
    item->setFlags(Qt::ItemIsEnabled);
    return item;
}

QTreeWidgetItem *NodeInspector::addField(QTreeWidgetItem *section, const QString &name,
                                         const QString &value)
{
    // Field names are the spec's wire names, so operators can match them to API payloads.
    auto *item = new QTreeWidgetItem(section, {name, orDash(value)});
    item->setToolTip(1, value);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

void NodeInspector::addEmbeddingStatus(QTreeWidgetItem *section, const NodeRecord &n)
{
    // The stored "failed" also covers nodes left unembedded on purpose; say which it is.
    const EmbeddingState state = EmbeddingState::of(n);
    QTreeWidgetItem *item = addField(section, QStringLiteral("embedding_status"), state.text);
    if (!state.detail.isEmpty())
        item->setToolTip(1, state.detail);
    if (state.isError())
        item->setForeground(1, QColor(errorColour()));
}

void NodeInspector::fillFields(const NodeRecord &n)
{
    m_fields->clear();

    QTreeWidgetItem *identity = addSection(tr("Identity"));
    addField(identity, QStringLiteral("id"), n.id);
    addField(identity, QStringLiteral("client_id"), n.clientId);
    addField(identity, QStringLiteral("type"), n.type);
    addField(identity, QStringLiteral("tier"), n.tier);
    addField(identity, QStringLiteral("memory_lane"), n.memoryLane);
    addField(identity, QStringLiteral("tenant_id"), n.tenantId);
    addField(identity, QStringLiteral("scope"), n.scope);
    addField(identity, QStringLiteral("commit_id"), n.commitId);

    QTreeWidgetItem *ownership = addSection(tr("Ownership"));
    addField(ownership, QStringLiteral("producer_agent_id"), n.producerAgentId);
    addField(ownership, QStringLiteral("owner_agent_id"), n.ownerAgentId);
    addField(ownership, QStringLiteral("owner_team_id"), n.ownerTeamId);

    QTreeWidgetItem *content = addSection(tr("Content"));
    addField(content, QStringLiteral("title"), n.title);
    addField(content, QStringLiteral("text_summary"), n.textSummary);
    addField(content, QStringLiteral("raw_ref"), n.rawRef);
    addField(content, QStringLiteral("evidence_ref"), n.evidenceRef);

    QTreeWidgetItem *embedding = addSection(tr("Embedding"));
    addEmbeddingStatus(embedding, n);
    addField(embedding, QStringLiteral("embedding_model"), n.embeddingModel);
    addField(embedding, QStringLiteral("embedding_error"), n.embeddingError);

    QTreeWidgetItem *scores = addSection(tr("Scores"));
    addField(scores, QStringLiteral("salience"), formatScore(n.salience));
    addField(scores, QStringLiteral("importance"), formatScore(n.importance));
    addField(scores, QStringLiteral("confidence"), formatScore(n.confidence));

    QTreeWidgetItem *times = addSection(tr("Times"));
    addField(times, QStringLiteral("created_at"), formatDateTime(n.createdAt));
    addField(times, QStringLiteral("updated_at"), formatDateTime(n.updatedAt));
    addField(times, QStringLiteral("last_activated"),
             n.lastActivated.isValid() ? formatDateTime(n.lastActivated) : tr("never"));

    m_fields->expandAll();
}

void NodeInspector::fillEdges(const NodeDetail &detail)
{
    const QString self = detail.node.id;
    m_edges->setRowCount(int(detail.edges.size()));
    for (int row = 0; row < detail.edges.size(); ++row) {
        const EdgeRecord &e = detail.edges.at(row);
        const bool outgoing = e.fromId == self;
        const QString other = outgoing ? e.toId : e.fromId;
        QString direction;
        QString directionTip;
        if (e.fromId == e.toId) {
            direction = tr("\u21ba self");
            directionTip = tr("This node points to itself");
        } else if (outgoing) {
            direction = tr("\u2192 out");
            directionTip = tr("This node \u2192 other node");
        } else {
            direction = tr("\u2190 in");
            directionTip = tr("Other node \u2192 this node");
        }

        auto *typeItem = edgeItem(e.type);
        typeItem->setData(NodeIdRole, other);
        m_edges->setItem(row, EdgeType, typeItem);
        auto *directionItem = edgeItem(direction);
        directionItem->setToolTip(directionTip);
        m_edges->setItem(row, EdgeDirection, directionItem);
        auto *otherItem = edgeItem(titleFor(other));
        otherItem->setToolTip(other);
        m_edges->setItem(row, EdgeOtherNode, otherItem);
        auto *weight = edgeItem(formatScore(e.weight));
        weight->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_edges->setItem(row, EdgeWeight, weight);
        auto *confidence = edgeItem(formatScore(e.confidence));
        confidence->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_edges->setItem(row, EdgeConfidence, confidence);
        m_edges->setItem(row, EdgeOtherId, edgeItem(other));
    }
    m_edgesTitle->setText(tr("Edges (%1)").arg(detail.edges.size()));
}

QString NodeInspector::titleFor(const QString &nodeId) const
{
    const QString title = m_titles.value(nodeId);
    return title.isEmpty() ? nodeId : title;
}

} // namespace MemoryGraph::Ui
