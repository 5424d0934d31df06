// SequenceText: a sequence's letters with the design's marks (see sequence_text.hpp).
#include "gsflow/ui/sequence_text.hpp"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QTextCursor>
#include <QToolTip>

namespace gsflow::ui {

SequenceText::SequenceText(QWidget* parent) : QTextEdit(parent) {
  setReadOnly(true);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setLineWrapMode(QTextEdit::WidgetWidth);
  setWordWrapMode(QTextOption::WrapAnywhere);  // one unbroken run of letters, wrapped anywhere
  setPlaceholderText(tr("The final sequence shows here once its batch is done"));
}

QColor SequenceText::fixedBackground() { return QColor(253, 208, 162); }
QColor SequenceText::editedColor() { return QColor(106, 61, 154); }
QColor SequenceText::selectedBackground() { return QColor(255, 224, 138); }

QString SequenceText::html(const QString& letters, const QVector<bool>& fixed,
                           const QVector<bool>& edited, int first, int last) {
  // Runs of letters that share a style become one span, so a 256-letter sequence stays small.
  const auto style = [&](int i) {
    const bool isFixed = i < fixed.size() && fixed[i];
    const bool isEdited = i < edited.size() && edited[i];
    const bool isSelected = first >= 0 && i >= first && i <= last;
    QString css;
    if (isSelected)
      css += QStringLiteral("background-color:%1;").arg(selectedBackground().name());
    else if (isFixed)
      css += QStringLiteral("background-color:%1;").arg(fixedBackground().name());
    if (isEdited) css += QStringLiteral("color:%1;font-weight:bold;").arg(editedColor().name());
    return css;
  };
  QString out = QStringLiteral("<p style=\"margin:0\">");
  for (int i = 0; i < letters.size();) {
    const QString css = style(i);
    int j = i + 1;
    while (j < letters.size() && style(j) == css) ++j;
    const QString run = letters.mid(i, j - i).toHtmlEscaped();
    out += css.isEmpty() ? run : QStringLiteral("<span style=\"%1\">%2</span>").arg(css, run);
    i = j;
  }
  return out + QStringLiteral("</p>");
}

void SequenceText::setSequence(const QString& letters, const QVector<bool>& fixed,
                               const QVector<bool>& edited) {
  if (letters == letters_ && fixed == fixed_ && edited == edited_) return;
  letters_ = letters;
  fixed_ = fixed;
  edited_ = edited;
  render();
}

void SequenceText::setSelection(int first, int last) {
  if (first == first_ && last == last_) return;
  first_ = first;
  last_ = last;
  render();
}

void SequenceText::render() {
  if (letters_.isEmpty())
    clear();
  else
    setHtml(html(letters_, fixed_, edited_, first_, last_));
}

int SequenceText::positionAt(const QPoint& point) const {
  if (letters_.isEmpty()) return -1;
  const QTextCursor cursor = cursorForPosition(point);
  // The letter under the point, not the gap before it: compare with the letter's own box.
  int p = cursor.position();
  if (p > 0 && cursorRect(cursor).left() > point.x()) --p;
  return p >= 0 && p < letters_.size() ? p : -1;
}

bool SequenceText::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int p = positionAt(help->pos());
    if (p >= 0) {
      QString text = tr("Position %1: %2").arg(p + 1).arg(letters_[p]);
      if (p < fixed_.size() && fixed_[p]) text += tr(" (fixed by the design)");
      if (p < edited_.size() && edited_[p]) text += tr(" (edited from the start sequence)");
      QToolTip::showText(help->globalPos(), text, viewport());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QTextEdit::viewportEvent(event);
}

}  // namespace gsflow::ui
