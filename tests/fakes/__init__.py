"""The suite's fakes: real HTTP servers on 127.0.0.1 that answer as the services webtap calls."""
