// Where gsflow-studio keeps its settings: one file per user, never shared. Qt's default would
// read a system-wide file (/etc/xdg/ORG/APP.conf) and the organisation's file as fallbacks, and
// with HOME unset or empty it writes to "/.config", which every user without a HOME shares; a
// first start could then show settings another user saved (issue 41).
#pragma once

#include <QString>
#include <memory>

class QSettings;

namespace gsflow::ui {

// The user's configuration folder: $XDG_CONFIG_HOME when it is an absolute path (the XDG base
// directory spec ignores a relative one), else HOME/.config with HOME from $HOME or, when that is
// unset, empty or relative, the password database's home of the user running the process.
QString userConfigDir();

// Points QSettings' user scope (native and INI formats) at userConfigDir(), so every QSettings of
// the process (also a default-constructed one) keeps the user's settings in
// userConfigDir()/ORG/APP.conf. Called once at start-up (main), and by tests after they change
// the environment.
void useUserSettings();

// The user's settings of this application (QCoreApplication's organisation and application
// names, QSettings' default format) without the system-wide or organisation-wide fallbacks.
std::unique_ptr<QSettings> userSettings();

}  // namespace gsflow::ui
