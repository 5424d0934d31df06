// The final letters of one sequence as text to read and copy on the trajectory tab: positions the
// run's design fixed on an orange ground, letters edited away from the start sequence in bold
// purple, and the positions selected in the heatmap on yellow; hovering a letter names its
// position.
#pragma once

#include <QColor>
#include <QTextEdit>
#include <QVector>

namespace gsflow::ui {

class SequenceText : public QTextEdit {
  Q_OBJECT

 public:
  explicit SequenceText(QWidget* parent = nullptr);

  // `fixed` and `edited`: one flag per letter, or empty for none.
  void setSequence(const QString& letters, const QVector<bool>& fixed = {},
                   const QVector<bool>& edited = {});
  // Positions first..last (0-based) are highlighted; -1 for none.
  void setSelection(int first, int last);
  QString letters() const { return letters_; }
  // The position (0-based) under `point` in viewport coordinates, -1 when none.
  int positionAt(const QPoint& point) const;

  // The document as HTML (tests read the marks from it).
  static QString html(const QString& letters, const QVector<bool>& fixed,
                      const QVector<bool>& edited, int first, int last);
  static QColor fixedBackground();
  static QColor editedColor();
  static QColor selectedBackground();

 protected:
  bool viewportEvent(QEvent* event) override;

 private:
  void render();
  QString letters_;
  QVector<bool> fixed_, edited_;
  int first_ = -1, last_ = -1;
};

}  // namespace gsflow::ui
