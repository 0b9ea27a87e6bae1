	.text
	ret
