"""What people and learners see of a falling-skies position; views never change a state.

The terminal drawing (``render``), the web board (``web`` and the modules it is drawn with) and
the observation tensor (``tensor``).
"""
