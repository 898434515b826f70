"""Atlas Workbench entry point: the only router (`st.navigation`) and the shared sidebar.

Run with `make run` (which seeds demo data first) or `streamlit run app.py`.
Each screen is one `st.Page` line below; a screen is listed only once its file exists.
"""

from __future__ import annotations

import logging

import streamlit as st

from pages import _runtime as runtime
from pages import _ui as ui

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

st.set_page_config(page_title="Atlas Workbench", page_icon=":material/insights:", layout="wide")

# The default page lives at "/"; every other page gets a url_path (a deep link).
PAGES = [
    st.Page("pages/data.py", title="데이터", icon=":material/database:", default=True),
    st.Page("pages/etf_chat.py", title="ETF 챗", icon=":material/forum:", url_path="etf"),
    st.Page("pages/macro_qa.py", title="매크로 Q&A", icon=":material/public:", url_path="macro"),
    st.Page("pages/opening_script.py", title="오프닝 스크립트", icon=":material/mic:",
            url_path="opening"),
    st.Page("pages/contract_clauses.py", title="계약 조항", icon=":material/gavel:",
            url_path="contract"),
    st.Page("pages/stock_report.py", title="종목 리포트", icon=":material/query_stats:",
            url_path="stock"),
]  # fmt: skip

navigation = st.navigation(PAGES)
with st.spinner("저장소를 준비하는 중…"):
    runtime.service_info()  # first view of the process: servers, migrations, catalogue
ui.render_sidebar()
navigation.run()
