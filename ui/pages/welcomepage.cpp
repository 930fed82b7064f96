#include "ui/pages/welcomepage.h"

#include "ui/pages/httpexample.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int ColumnMaxWidth = 900;
constexpr int SnippetLines = 12; // the longest client configuration

QLabel *makeNote(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

QPushButton *makeButton(const QString &text, const QString &objectName, QWidget *parent)
{
    auto *button = new QPushButton(text, parent);
    button->setObjectName(objectName);
    // Enter presses a focused button here as it would in a dialog.
    button->setAutoDefault(true);
    return button;
}

} // namespace

WelcomePage::WelcomePage(QWidget *parent) : QWidget(parent)
{
    auto *column = new QWidget(this);
    column->setObjectName(QStringLiteral("welcomeColumn"));
    column->setMaximumWidth(ColumnMaxWidth);

    auto *title = new QLabel(tr("Welcome to Memory Graph"), column);
    title->setObjectName(QStringLiteral("welcomeTitle"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.7);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto *intro = new QLabel(tr("A long-term memory for the agents on this machine. Point an "
                                "agent at the address below so it can remember and recall, or "
                                "start with a few sample memories to look around."),
                             column);
    intro->setWordWrap(true);

    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(24, 20, 24, 20);
    layout->setSpacing(14);
    layout->addWidget(title);
    layout->addWidget(intro);
    layout->addWidget(createBanner());
    layout->addWidget(createAddressBox());
    layout->addWidget(createConnectBox());
    layout->addWidget(createStartBox());
    layout->addStretch(1);

    // The column stays readable on a wide window and scrolls on a short one.
    auto *canvas = new QWidget(this);
    auto *centring = new QHBoxLayout(canvas);
    centring->setContentsMargins(0, 0, 0, 0);
    centring->addStretch(1);
    centring->addWidget(column, 100);
    centring->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("welcomeScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(canvas);
    scroll->viewport()->setBackgroundRole(QPalette::Window);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    chainTabOrder();
    setImportAvailable(false);
    setListener(ServerPage::State::Stopped, QString(), QString());
    updateSnippet();
    updateDefaultButton();
}

QWidget *WelcomePage::createBanner()
{
    m_banner = new QFrame(this);
    m_banner->setObjectName(QStringLiteral("welcomeBanner"));
    auto *icon = new QLabel(m_banner);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(
        style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(iconSize, iconSize));
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setObjectName(QStringLiteral("welcomeBannerText"));
    m_bannerText->setWordWrap(true);
    m_browseButton = makeButton(tr("&Browse memories"), QStringLiteral("browseButton"), m_banner);
    m_browseButton->setToolTip(tr("Open the Memory page: the scope's nodes, edges and commits"));
    m_graphButton = makeButton(tr("Open the &graph"), QStringLiteral("graphButton"), m_banner);
    m_graphButton->setToolTip(tr("Open the Graph page: the scope's most salient nodes"));
    connect(m_browseButton, &QPushButton::clicked, this, &WelcomePage::browseRequested);
    connect(m_graphButton, &QPushButton::clicked, this, &WelcomePage::graphRequested);

    auto *layout = new QHBoxLayout(m_banner);
    layout->setContentsMargins(12, 8, 8, 8);
    layout->addWidget(icon);
    layout->addWidget(m_bannerText, 1);
    layout->addWidget(m_browseButton);
    layout->addWidget(m_graphButton);
    m_banner->hide();
    applyBannerStyle();
    return m_banner;
}

QWidget *WelcomePage::createAddressBox()
{
    auto *box = new QGroupBox(tr("Where agents connect"), this);

    m_addressLabel = new QLabel(box);
    m_addressLabel->setObjectName(QStringLiteral("welcomeAddressLabel"));
    m_addressLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont addressFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    addressFont.setPointSizeF(font().pointSizeF() * 1.35);
    addressFont.setBold(true);
    m_addressLabel->setFont(addressFont);

    m_stateDot = new QLabel(QStringLiteral("\u25cf"), box);
    m_stateLabel = new QLabel(box);
    m_stateLabel->setObjectName(QStringLiteral("welcomeStateLabel"));
    m_stateLabel->setWordWrap(true);
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_copyAddressButton = makeButton(tr("Copy a&ddress"), QStringLiteral("copyAddressButton"), box);
    connect(m_copyAddressButton, &QPushButton::clicked, this,
            [this]() { QApplication::clipboard()->setText(m_baseUrl); });
    m_serverButton = makeButton(tr("&Server page"), QStringLiteral("serverPageButton"), box);
    m_serverButton->setToolTip(tr("Bind address, port, start and stop, and the request log"));
    connect(m_serverButton, &QPushButton::clicked, this, &WelcomePage::serverPageRequested);

    auto *stateRow = new QHBoxLayout;
    stateRow->setSpacing(6);
    stateRow->addWidget(m_stateDot, 0, Qt::AlignTop);
    stateRow->addWidget(m_stateLabel, 1);

    auto *grid = new QGridLayout(box);
    grid->setHorizontalSpacing(12);
    grid->addWidget(m_addressLabel, 0, 0);
    grid->addWidget(m_copyAddressButton, 0, 1);
    grid->addWidget(m_serverButton, 0, 2);
    grid->addLayout(stateRow, 1, 0, 1, 3);
    grid->addWidget(makeNote(tr("The HTTP API is under /v1 of this address and the MCP endpoint "
                                "at /mcp. Only programs on this machine can reach it."),
                             box),
                    2, 0, 1, 3);
    grid->setColumnStretch(0, 1);
    return box;
}

QWidget *WelcomePage::createConnectBox()
{
    auto *box = new QGroupBox(tr("Connect an agent"), this);

    m_agentCombo = new QComboBox(box);
    m_agentCombo->setObjectName(QStringLiteral("agentCombo"));
    for (const McpClientConfig::Client client : McpClientConfig::clients())
        m_agentCombo->addItem(McpClientConfig::clientName(client));
    m_agentCombo->addItem(tr("Any HTTP client (curl)"));
    auto *agentLabel = new QLabel(tr("&Agent:"), box);
    agentLabel->setBuddy(m_agentCombo);

    m_transportCombo = new QComboBox(box);
    m_transportCombo->setObjectName(QStringLiteral("transportCombo"));
    m_transportCombo->addItem(tr("MCP over HTTP"), int(McpClientConfig::Transport::Http));
    m_transportCombo->addItem(tr("MCP over stdio (memorygraph mcp)"),
                              int(McpClientConfig::Transport::Stdio));
    m_transportCombo->setToolTip(tr("HTTP: the agent talks to this window's listener. stdio: the "
                                    "agent starts memorygraph mcp, which forwards to it."));
    auto *transportLabel = new QLabel(tr("&Transport:"), box);
    transportLabel->setBuddy(m_transportCombo);

    m_destinationLabel = new QLabel(box);
    m_destinationLabel->setObjectName(QStringLiteral("snippetDestinationLabel"));

    m_snippet = new QPlainTextEdit(box);
    m_snippet->setObjectName(QStringLiteral("snippetText"));
    m_snippet->setReadOnly(true);
    // Read-only, yet reachable and selectable from the keyboard.
    m_snippet->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_snippet->setFocusPolicy(Qt::StrongFocus);
    m_snippet->setTabChangesFocus(true);
    m_snippet->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const int lineHeight = QFontMetrics(m_snippet->font()).lineSpacing();
    m_snippet->setFixedHeight(lineHeight * SnippetLines + 2 * m_snippet->frameWidth() + 10);

    m_copySnippetButton = makeButton(tr("Co&py"), QStringLiteral("copySnippetButton"), box);
    m_copySnippetButton->setToolTip(tr("Copy the snippet to the clipboard"));
    connect(m_copySnippetButton, &QPushButton::clicked, this, &WelcomePage::copySnippet);
    m_copiedLabel = makeNote(QString(), box);
    m_copiedLabel->setObjectName(QStringLiteral("snippetCopiedLabel"));

    connect(m_agentCombo, &QComboBox::currentIndexChanged, this, &WelcomePage::updateSnippet);
    connect(m_transportCombo, &QComboBox::currentIndexChanged, this, &WelcomePage::updateSnippet);

    auto *choices = new QHBoxLayout;
    choices->addWidget(agentLabel);
    choices->addWidget(m_agentCombo);
    choices->addSpacing(16);
    choices->addWidget(transportLabel);
    choices->addWidget(m_transportCombo);
    choices->addStretch(1);

    auto *footer = new QHBoxLayout;
    footer->addWidget(m_destinationLabel, 1);
    footer->addWidget(m_copiedLabel);
    footer->addWidget(m_copySnippetButton);

    auto *layout = new QVBoxLayout(box);
    layout->addLayout(choices);
    layout->addWidget(m_snippet);
    layout->addLayout(footer);
    return box;
}

QWidget *WelcomePage::createStartBox()
{
    auto *box = new QGroupBox(tr("Start with some memories"), this);

    m_samplesButton
        = makeButton(tr("&Load sample memories"), QStringLiteral("loadSamplesButton"), box);
    m_samplesButton->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    connect(m_samplesButton, &QPushButton::clicked, this, &WelcomePage::loadSamplesRequested);
    auto *samplesText = makeNote(tr("A support team's notes on one customer: people, incidents, "
                                    "a topic and two rules, written into the default scope the "
                                    "way an agent writes them."),
                                 box);

    m_importButton = makeButton(tr("&Import\u2026"), QStringLiteral("importButton"), box);
    connect(m_importButton, &QPushButton::clicked, this, &WelcomePage::importRequested);
    m_importText = makeNote(tr("Bring in memories exported from another Memory Graph."), box);

    auto *grid = new QGridLayout(box);
    grid->setHorizontalSpacing(12);
    grid->addWidget(m_samplesButton, 0, 0);
    grid->addWidget(samplesText, 0, 1);
    grid->addWidget(m_importButton, 1, 0);
    grid->addWidget(m_importText, 1, 1);
    grid->setColumnStretch(1, 1);
    return box;
}

void WelcomePage::chainTabOrder()
{
    const QList<QWidget *> chain{
        m_browseButton,   m_graphButton, m_copyAddressButton, m_serverButton,  m_agentCombo,
        m_transportCombo, m_snippet,     m_copySnippetButton, m_samplesButton, m_importButton};
    for (int i = 1; i < chain.size(); ++i)
        QWidget::setTabOrder(chain.at(i - 1), chain.at(i));
}

void WelcomePage::setListener(ServerPage::State state, const QString &baseUrl,
                              const QString &failure)
{
    m_state = state;
    m_baseUrl = baseUrl;
    m_addressLabel->setText(baseUrl.isEmpty() ? tr("no address yet") : baseUrl);
    // Greyed while nothing answers there.
    m_addressLabel->setForegroundRole(
        state == ServerPage::State::Running ? QPalette::WindowText : QPalette::PlaceholderText);
    m_copyAddressButton->setEnabled(!baseUrl.isEmpty());

    QString text;
    switch (state) {
    case ServerPage::State::Running: text = tr("Listening: agents can connect now."); break;
    case ServerPage::State::Starting: text = tr("Starting the listener\u2026"); break;
    case ServerPage::State::Stopping: text = tr("Stopping the listener\u2026"); break;
    case ServerPage::State::Stopped:
        text = tr("Not listening: agents cannot connect until the HTTP server is started on the "
                  "Server page.");
        break;
    case ServerPage::State::Failed:
        text = tr("The HTTP server could not start: %1. Change the address or port on the Server "
                  "page and start it again.")
                   .arg(failure.isEmpty() ? tr("no reason given") : failure);
        break;
    }
    m_stateLabel->setText(text);
    m_stateDot->setStyleSheet(QStringLiteral("color: %1;").arg(ServerPage::stateColor(state)));
    updateSnippet();
}

void WelcomePage::setClientTarget(const McpClientConfig::Target &target)
{
    m_target = target;
    updateSnippet();
}

void WelcomePage::setStoredNodes(qint64 nodes)
{
    if (nodes < 0)
        return; // unknown: keep what the page says
    m_storedNodes = nodes;
    if (nodes == 0) {
        m_sawEmptyStore = true;
        m_banner->hide();
    } else {
        const QString count = nodes == 1 ? tr("1 node is") : tr("%1 nodes are").arg(nodes);
        m_bannerText->setText(m_sawEmptyStore
                                  ? tr("<b>Memories arrived.</b> %1 stored now.").arg(count)
                                  : tr("%1 stored.").arg(count));
        m_banner->show();
    }
    updateDefaultButton();
}

void WelcomePage::setLoadingSamples(bool loading)
{
    m_samplesButton->setEnabled(!loading);
    m_samplesButton->setText(loading ? tr("Loading sample memories\u2026")
                                     : tr("&Load sample memories"));
}

void WelcomePage::setImportAvailable(bool available)
{
    m_importButton->setVisible(available);
    m_importText->setVisible(available);
}

QString WelcomePage::addressText() const
{
    return m_addressLabel->text();
}

QString WelcomePage::listenerText() const
{
    return m_stateLabel->text();
}

QString WelcomePage::snippetText() const
{
    return m_snippet->toPlainText();
}

void WelcomePage::selectAgent(Agent agent, McpClientConfig::Transport transport)
{
    m_agentCombo->setCurrentIndex(int(agent));
    m_transportCombo->setCurrentIndex(m_transportCombo->findData(int(transport)));
}

bool WelcomePage::isBannerShown() const
{
    return !m_banner->isHidden();
}

QString WelcomePage::bannerText() const
{
    return m_bannerText->text();
}

QPushButton *WelcomePage::defaultButton() const
{
    return isBannerShown() ? m_browseButton : m_samplesButton;
}

void WelcomePage::updateSnippet()
{
    const auto agent = Agent(qMax(0, m_agentCombo->currentIndex()));
    const bool curl = agent == Agent::Curl;
    m_transportCombo->setEnabled(!curl);
    m_copiedLabel->clear();
    if (curl) {
        m_destinationLabel->setText(tr("Run in a terminal:"));
        m_snippet->setPlainText(HttpExample::curlText(m_baseUrl, m_target.needsKey));
        return;
    }
    const auto client = McpClientConfig::clients().value(int(agent));
    const auto transport = McpClientConfig::Transport(m_transportCombo->currentData().toInt());
    m_destinationLabel->setText(client == McpClientConfig::Client::ClaudeCode
                                    ? tr("Run in a terminal:")
                                    : tr("Add to %1:").arg(McpClientConfig::destination(client)));
    m_snippet->setPlainText(McpClientConfig::text(client, transport, m_target));
}

void WelcomePage::copySnippet()
{
    QApplication::clipboard()->setText(m_snippet->toPlainText());
    m_copiedLabel->setText(tr("Copied."));
}

void WelcomePage::updateDefaultButton()
{
    QPushButton *primary = defaultButton();
    for (QPushButton *button : {m_browseButton, m_samplesButton})
        button->setDefault(button == primary);
}

void WelcomePage::applyBannerStyle()
{
    // From the palette, so the banner reads the same in the light and the dark theme.
    const QColor accent = palette().color(QPalette::Highlight);
    m_banner->setStyleSheet(QStringLiteral("QFrame#welcomeBanner { background-color: rgba(%1, %2, "
                                           "%3, 40); border: 1px solid rgba(%1, %2, %3, 170);"
                                           " border-radius: 6px; }")
                                .arg(accent.red())
                                .arg(accent.green())
                                .arg(accent.blue()));
}

void WelcomePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Arriving on the page puts the keyboard on its main action; a focus inside stays put.
    QWidget *focused = QApplication::focusWidget();
    if (!focused || !isAncestorOf(focused))
        defaultButton()->setFocus(Qt::OtherFocusReason);
}

void WelcomePage::keyPressEvent(QKeyEvent *event)
{
    // Enter anywhere on the page presses the default button, as in a dialog.
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
        && (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier) {
        QPushButton *primary = defaultButton();
        if (primary->isVisible() && primary->isEnabled()) {
            primary->click();
            return;
        }
    }
    QWidget::keyPressEvent(event);
}

void WelcomePage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_banner)
        applyBannerStyle();
}

} // namespace MemoryGraph::Ui
