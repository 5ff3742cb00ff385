print("{\"b")
i= nil
