"""What people and learners see of a Showdown position: the terminal drawing (``render``), the
web table (``web``) and the observation tensor (``tensor``). Views never change a state.
"""
