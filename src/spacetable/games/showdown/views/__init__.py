"""What people and learners see of a Showdown position; views never change a state.

The terminal drawing (``render``), the web table (``web`` and the modules it is drawn with) and
the observation tensor (``tensor``).
"""
