"""What people and learners see of a falling-skies position; views never change a state.

The terminal drawing (``render``), the web board (``web`` and the modules it is drawn with), the
guide line and the end screen's words (``web_guide``), and the observation tensor (``tensor``).
"""
