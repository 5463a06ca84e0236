def test_x():
    import agents.llm, fakeserver
