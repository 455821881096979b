/**
 * Which of an office app's edits LibreOffice itself can make (its folder's uno_ops.py), and why the
 * others can't: tests replay an oracle's edits in the real application with these to get correct end
 * states made the way a person works, and everything named here is applied by our own writer instead.
 */
export interface LibreOfficeDriven {
  /** Edit op → why LibreOffice is not driven to make it (a gap in UNO, or a file it can't make). */
  notDriven: Record<string, string>;
}
