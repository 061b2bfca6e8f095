print("urlstubs-bench: not written yet")
