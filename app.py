"""Atlas Workbench entry point: the only router (`st.navigation`) and the shared sidebar.

Run with `make run` (which seeds demo data first) or `python app.py` (`streamlit run app.py`
works too, but its first visit flashes Streamlit's own page list, see below; its first view
preloads the screens' modules, which `python app.py` does before the server starts). The app listens on
loopback unless told otherwise; beyond loopback it needs sign-in (README, "Sharing the workbench").
Each screen is one `st.Page` line below; a screen is listed only once its file exists.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

import streamlit as st

if __name__ == "__main__" and not st.runtime.exists():  # `python app.py [--server.port …]`
    # Streamlit starts a server in its old multipage mode when a `pages/` folder exists, so the
    # first visit of a process ran that mode: the sidebar listed every module of pages/ ('app',
    # 'access', 'answer', …) and a deep link ('/etf') opened an English "Page not found" popup
    # until app.py's st.navigation took over. Launched from here the mode is off from the start
    # (pages/_ui.ensure_shell still covers `streamlit run app.py`).
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web import cli

    from pages._preload import preload, serialize_ast_parse

    PagesManager.uses_pages_directory = False
    # The screens' modules, imported here in the main thread: a first view importing them in
    # its script thread beside the warm-up thread could fail in ast.parse (gh-106905).
    serialize_ast_parse()
    preload()  # preload_once() below then finds nothing left to import
    sys.argv = ["streamlit", "run", __file__, *sys.argv[1:]]
    sys.exit(cli.main())

from data_access import access
from pages import _access as access_ui
from pages import _i18n as i18n
from pages import _runtime as runtime
from pages import _ui as ui
from pages._preload import preload_once

# Under `streamlit run app.py` the process's first run imports the screens' modules here, before
# anything starts the warm-up thread; other sessions' first runs wait for it (pages/_preload.py).
preload_once()
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

# A local file: a ":material/…:" page icon makes every browser fetch it from fonts.gstatic.com.
PAGE_ICON = str(Path(__file__).parent / "pages" / "assets" / "favicon.png")
st.set_page_config(page_title="Atlas Workbench", page_icon=PAGE_ICON, layout="wide")
i18n.install()  # Korean for the texts Streamlit's own widgets draw ("Upload", "Add: …")

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


def _only(screen: Callable[[], None], title: str, icon: str) -> list[st.Page]:
    """One screen at "/" and at every other screen's deep link (PAGES[0] is the default)."""
    return [st.Page(screen, title=title, icon=icon, default=True)] + [
        st.Page(screen, title=title, icon=icon, url_path=p.url_path) for p in PAGES[1:]
    ]


def _pages() -> list[st.Page]:
    """Every screen for a user who may see them; otherwise the one screen that says why not
    (open beyond loopback without sign-in) or the sign-in screen (data_access/access.py)."""
    problem = access_ui.startup_problem()
    if problem:
        return _only(lambda: access_ui.refusal_screen(problem), "접속 불가", ":material/lock:")
    if not access.current_viewer().signed_in and access_ui.sign_in_on():
        return _only(access_ui.sign_in_screen, "로그인", ":material/login:")
    return PAGES


access_ui.install()  # access.current_viewer() is this session's user from here on
pages = _pages()
navigation = st.navigation(pages, position="sidebar" if pages is PAGES else "hidden")
if pages is PAGES:
    with st.spinner("저장소를 준비하는 중…"):
        runtime.service_info()  # first view of the process: servers, migrations, catalogue
    ui.render_sidebar()
navigation.run()
