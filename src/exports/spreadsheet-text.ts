/**
 * Text a spreadsheet program opens as text, never as a formula (OWASP, "CSV Injection"): a cell that begins with `=`,
 * `+`, `-`, `@`, a tab or a carriage return (or their full-width forms, which some programs also take) gets a leading
 * apostrophe, which Excel, LibreOffice and Google Sheets read as "this is text" and do not show. Leading white space
 * does not hide a formula from every program, so it is looked through. A CSV cell holds what people typed into a
 * shot; in XLSX a string is stored as a string and needs none of this.
 */

const FORMULA_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
