"""What people and learners see of a falling-skies position: the terminal drawing (``render``),
the web board (``web``) and the observation tensor (``tensor``). Views never change a state.
"""
