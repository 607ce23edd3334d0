version = "1.11.0"
