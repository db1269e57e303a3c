int host() { return 0; }
