#pragma once

#include <QString>
#include <QStringList>

namespace MemoryGraph::Ui {

/// "Start at login" for the current user, started with --minimized so it comes up in the tray:
/// - Linux and other XDG desktops: $XDG_CONFIG_HOME/autostart/memorygraph.desktop
///   (~/.config/autostart when unset);
/// - Windows: the "Memory Graph" value of HKCU\Software\Microsoft\Windows\CurrentVersion\Run;
/// - macOS: ~/Library/LaunchAgents/org.memorygraph.MemoryGraph.plist.
/// The entry on disk (or in the registry) is the only truth: nothing else remembers the choice.
class AutoStart
{
public:
    /// program: the executable to start (its absolute path); arguments: what to pass after
    /// --minimized (e.g. the --data-dir of this run).
    explicit AutoStart(const QString &program, const QStringList &arguments = {});

    /// The arguments the entry starts the program with: --minimized, then the extra ones.
    QStringList startArguments() const;

    bool isEnabled() const;
    /// Writes or removes the entry. On failure returns false and says why in *errorText.
    bool setEnabled(bool enabled, QString *errorText = nullptr);
    /// Where the entry lives, for the settings dialog: a file path or a registry key.
    QString location() const;

    /// The XDG desktop entry that starts program with arguments.
    static QString desktopEntry(const QString &program, const QStringList &arguments);
    /// One argument as the Exec key of a desktop entry wants it (quoted when needed).
    static QString desktopExecArgument(const QString &argument);
    /// The launchd property list that starts program with arguments at login.
    static QString launchAgentPlist(const QString &program, const QStringList &arguments);
    /// The command line stored in the Windows Run key.
    static QString windowsCommandLine(const QString &program, const QStringList &arguments);

private:
    QString m_program;
    QStringList m_arguments;
};

} // namespace MemoryGraph::Ui
