"""Front ends: the console script (`storytable`) and the Streamlit table."""
