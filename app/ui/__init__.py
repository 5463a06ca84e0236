"""The Streamlit table, split by what each part shows. `store` holds no Streamlit code."""
