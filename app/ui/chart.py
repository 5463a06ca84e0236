"""Coins over the game, per seat."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from app.ui import store


def coins_chart(live: store.Live) -> None:
    hist = live.wealth_history()
    if len(hist) < 2:
        st.caption("The chart of coins starts with the first action.")
        return
    df = pd.DataFrame(hist)
    df.index.name = "action"
    st.markdown("**Coins over the game**")
    st.line_chart(df, height=220, x_label="action", y_label="wealth")
