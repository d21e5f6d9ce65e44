"""Files organisers take away: Excel workbooks (openpyxl) and PDFs (reportlab)."""
