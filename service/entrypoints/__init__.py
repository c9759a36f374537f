"""The ways in besides the web app: the command line, the bot runner, the golden-log
recorder. Each builds what it needs through ``service/bootstrap.py`` (or the app)."""
